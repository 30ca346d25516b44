# Sourced by ./llmload: class-data sharing (AppCDS) for llmload.jar.
#
# The first launch after the jar is built makes an archive of the classes that a short run of the
# built-in simulator loads, for this JDK build and these JVM options; every later launch maps that
# archive instead of reading, verifying and linking those classes again (docs/performance.md,
# "Start-up"). The archive lies beside the jar, one per JDK build and set of JVM options, and is
# made again when the jar is newer. An archive the JVM cannot use after all is skipped without a
# word: the run goes on as without one.
#
# It is a static archive dumped from a class list (-XX:DumpLoadedClassList, then -Xshare:dump),
# which every JDK from 21 on makes and maps alike, also with ZGC. Dump and use get the same JVM
# options; the dump is checked once with -Xshare:on, which fails rather than run without it.
#
# LLMLOAD_CDS=off (or -Xshare:off in LLMLOAD_JAVA_OPTS): no archive is made or used.

# llmload_class_data JAVA JAR OPTION...
# Sets the array llmload_class_data_options to the options that map the archive made for JAVA, JAR
# and exactly these JVM options, making it first when it is missing or older than the jar; leaves it
# empty when LLMLOAD_CDS=off or when no archive could be made (the reason is in class-data.log).
llmload_class_data() {
  local java=$1 jar=$2
  shift 2
  llmload_class_data_options=()
  [ "${LLMLOAD_CDS:-}" = off ] && return 0
  case " $* " in *" -Xshare:off "*) return 0 ;; esac   # sharing turned off in LLMLOAD_JAVA_OPTS
  local release version key archive
  release="$(dirname "$(dirname "$java")")/release"
  # No release file (an unusual JDK layout): no name to key the archive by, so none.
  version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$release" 2>/dev/null | head -n 1) || return 0
  [ -n "$version" ] || return 0
  key=$(printf '%s\n' "$java" "$@" | cksum | cut -d' ' -f1)
  archive="$(dirname "$jar")/llmload-cds-${version//[^A-Za-z0-9._+-]/_}-$key.jsa"
  if [ ! "$archive" -nt "$jar" ]; then
    [ -e "$archive.failed" ] && [ "$archive.failed" -nt "$jar" ] && return 0
    llmload_make_class_data "$java" "$jar" "$archive" "$@" || return 0
  fi
  # The JVM's own messages about an archive it cannot map (another JDK build in the same place,
  # options that differ in what the archive depends on) would otherwise precede every run's output.
  llmload_class_data_options=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off)
  if [ "$(llmload_java_major "$java")" -ge 25 ]; then
    llmload_class_data_options+=(-Xlog:aot=off)   # a tag JDKs before 25 reject
  fi
}

# llmload_make_class_data JAVA JAR ARCHIVE OPTION...: makes ARCHIVE; fails (and says why in
# class-data.log beside the jar) when it cannot. Interrupted (Ctrl-C), it ends the launcher, and the
# next launch tries again.
llmload_make_class_data() {
  local java=$1 jar=$2 archive=$3
  shift 3
  local dir log status=0
  dir=$(dirname "$archive")
  log="$dir/class-data.log"
  [ -w "$dir" ] || return 1
  # One launcher makes it; one started meanwhile runs without it rather than wait.
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$archive.lock"
    flock -n 9 || { exec 9>&-; return 1; }
  fi
  llmload_class_data_work=$(mktemp -d "${TMPDIR:-/tmp}/llmload-cds.XXXXXX") || { exec 9>&-; return 1; }
  trap 'rm -rf "$llmload_class_data_work"' EXIT
  echo "llmload: preparing class data for this JDK (once per build, a few seconds; LLMLOAD_CDS=off skips it) ..." >&2
  # The training run only has to load the classes, so its JIT stops at the first tier.
  "$java" "$@" -XX:TieredStopAtLevel=1 -XX:DumpLoadedClassList="$llmload_class_data_work/classes.txt" \
    -jar "$jar" run --num-requests 8 --concurrency 4 --input-tokens 64 --output-tokens 16 --quiet \
    --output-dir "$llmload_class_data_work/run" >"$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    "$java" "$@" -Xshare:dump -XX:SharedClassListFile="$llmload_class_data_work/classes.txt" \
      -XX:SharedArchiveFile="$archive.tmp" -cp "$jar" >>"$log" 2>&1 || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    # Fails, rather than run without it, when the archive cannot be mapped.
    "$java" "$@" -Xshare:on -XX:SharedArchiveFile="$archive.tmp" -jar "$jar" --version >>"$log" 2>&1 || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    mv -f "$archive.tmp" "$archive" || status=$?
  fi
  rm -rf "$llmload_class_data_work" "$archive.lock"
  trap - EXIT
  exec 9>&-
  case $status in
    0)
      # Archives and failures of earlier builds of the jar are of no further use.
      find "$dir" -maxdepth 1 \( -name 'llmload-cds-*.jsa' -o -name 'llmload-cds-*.failed' \) ! -newer "$jar" \
        -exec rm -f {} + 2>/dev/null
      return 0 ;;
    130 | 143)
      rm -f "$archive.tmp"
      exit "$status" ;;
    *)
      echo "llmload: no class data (see $log); running without it" >&2
      rm -f "$archive.tmp"
      touch "$archive.failed"
      return 1 ;;
  esac
}
