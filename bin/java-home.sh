# Sourced by ./llmload, ./mvnw and .ci/run: exports JAVA_HOME pointing at a JDK of 21 or newer.
# Order: $JAVA_HOME if it is new enough, then the `java` on PATH, then the newest JDK under
# /usr/lib/jvm. A machine whose default java is older (17 is common) still builds this way.

llmload_java_major() {
  # Prints the feature version of the java binary $1 (e.g. 25), or nothing if it does not run.
  # A JDK's release file says it without starting a JVM (a tenth of a second or more of CPU).
  local release major
  release="$(dirname "$(dirname "$1")")/release"
  if [ -r "$release" ]; then
    major=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$release" | head -n 1)
    if [ -n "$major" ] && [ -x "$1" ]; then echo "$major"; return 0; fi
  fi
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
