# Sourced by ./llmload, ./mvnw and .ci/run: exports JAVA_HOME pointing at a JDK of 21 or newer.
# Order: $JAVA_HOME if it is new enough, then the `java` on PATH, then the newest JDK under
# /usr/lib/jvm. A machine whose default java is older (17 is common) still builds this way.

llmload_java_major() {
  # Prints the feature version of the java binary $1 (e.g. 25), or nothing if it does not run.
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

llmload_select_jdk() {
  local candidate major
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    major=$(llmload_java_major "$JAVA_HOME/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then return 0; fi
  fi
  if command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    major=$(llmload_java_major "$candidate/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then export JAVA_HOME="$candidate"; return 0; fi
  fi
  for candidate in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -V -r); do
    candidate=${candidate%/}
    [ -x "$candidate/bin/javac" ] || continue
    major=$(llmload_java_major "$candidate/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then export JAVA_HOME="$candidate"; return 0; fi
  done
  echo "llmload: no JDK 21 or newer found (checked JAVA_HOME=${JAVA_HOME:-<unset>}, the javac on PATH and /usr/lib/jvm/*); install one (e.g. Temurin 21+) and set JAVA_HOME to it" >&2
  return 1
}
