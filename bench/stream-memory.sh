#!/usr/bin/env bash
# What one stream in flight and one token event cost llmload's client in heap (docs/performance.md):
# the fixed-latency simulator streaming slowly on one CPU, `llmload run` with SMALL and then LARGE
# requests in flight on the other, and a class histogram of the client's live objects at two moments.
#
#   bench/stream-memory.sh                         # 10 and 1000 streams, histograms at 15 s and 35 s
#   LARGE=2000 bench/stream-memory.sh
#
# Environment: SMALL (10), LARGE (1000), T1 (15), T2 (35) seconds after the load started, ITL_MS
# (500), OUTPUT_TOKENS (400: the answers outlast T2), SIM_CPU (0), CLIENT_CPU (1; empty: no
# pinning), LLMLOAD_JAVA_OPTS (the client's, added to the launcher's), PORT (18557), OUT (a temp dir).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/java-home.sh"
llmload_select_jdk
export JAVA_HOME
OUT=${OUT:-$(mktemp -d /tmp/stream-memory.XXXXXX)}
mkdir -p "$OUT"
(cd "$root" && ./mvnw -B -q -pl llmload-cli -am package -DskipTests >"$OUT/build.log" 2>&1) \
    || { echo "build failed: $OUT/build.log" >&2; exit 1; }
touch "$root/llmload-cli/target/llmload.jar"   # the launcher then runs it as built
if [ "$(nproc)" -lt 2 ]; then SIM_CPU= CLIENT_CPU=; fi
export SIM_CPU=${SIM_CPU-0} CLIENT_CPU=${CLIENT_CPU-1}
echo "machine: $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg); files in $OUT"
python3 "$root/bench/stream-memory.py" "$OUT"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
