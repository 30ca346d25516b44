#!/usr/bin/env bash
# What the simulator's request parsing costs with and without Jackson's per-thread buffer
# recycling (docs/performance.md, "The simulator's warm-up and the first second"): one thread
# parses a 1.4 KB TGI body 50,000 times each way, after as many to warm up, in three rounds, and
# tokenizes its prompt as often for scale. Prints microseconds per body.
#
#   bench/sim-json-parse.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/bin/java-home.sh"
llmload_select_jdk
classpath=$(mktemp)
trap 'rm -f "$classpath"' EXIT
(cd "$root" && ./mvnw -B -q -pl llmload-sim dependency:build-classpath -Dmdep.outputFile="$classpath" >/dev/null)
exec "$JAVA_HOME/bin/java" -cp "$(cat "$classpath")" "$root/bench/SimJsonParse.java"
