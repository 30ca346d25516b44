#!/usr/bin/env bash
# Soak (docs/performance.md): one long closed-loop run against the fixed-latency simulator, with
# the client's RSS (VmRSS, /proc) and Java heap (used after the last collection, jcmd GC.heap_info)
# sampled every INTERVAL seconds. A client whose memory grows with the number of requests shows it
# here; a flat line means a long run costs no more memory than a short one. Not part of any test run.
#
#   bench/soak.sh                       # 10 minutes at concurrency 64
#   DURATION=180 bench/soak.sh          # shorter, on a busy machine
#
# Environment: DURATION (600 s), CONCURRENCY (64), INTERVAL (30 s), OUTPUT_TOKENS (128),
# TTFT_MS (30), ITL_MS (10), PORT (a free one), LLMLOAD_JAVA_OPTS (the client's, added to the
# launcher's), OUT (a temp dir). Prints one line per sample: seconds, requests journaled, RSS MiB, heap MiB.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/java-home.sh"
llmload_select_jdk
DURATION=${DURATION:-600} CONCURRENCY=${CONCURRENCY:-64} INTERVAL=${INTERVAL:-30}
OUTPUT_TOKENS=${OUTPUT_TOKENS:-128} TTFT_MS=${TTFT_MS:-30} ITL_MS=${ITL_MS:-10}
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
OUT=${OUT:-$(mktemp -d /tmp/soak.XXXXXX)}
mkdir -p "$OUT"
(cd "$root" && ./mvnw -B -q -pl llmload-cli -am package -DskipTests >"$OUT/build.log" 2>&1) \
    || { echo "build failed: $OUT/build.log" >&2; exit 1; }
touch "$root/llmload-cli/target/llmload.jar"   # the launcher then runs it as built

"$root/llmload" sim --port "$PORT" --engine fixed --ttft-ms "$TTFT_MS" --itl-ms "$ITL_MS" \
    --prefill-ms-per-token 0 >"$OUT/sim.log" 2>&1 &
sim=$!
client=
cleanup() {
    [ -n "$client" ] && kill "$client" 2>/dev/null || true
    kill "$sim" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT
up=
for _ in $(seq 1 120); do
    kill -0 "$sim" 2>/dev/null || break
    curl -fsS "http://127.0.0.1:$PORT/v1/models" >/dev/null 2>&1 && { up=1; break; }
    sleep 0.5
done
[ -n "$up" ] || { echo "the simulator did not start: $(cat "$OUT/sim.log")" >&2; exit 1; }

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); files in $OUT"
echo "soak: ${DURATION} s at concurrency $CONCURRENCY, $OUTPUT_TOKENS output tokens, TTFT $TTFT_MS ms, ITL $ITL_MS ms"
"$root/llmload" run --url "http://127.0.0.1:$PORT" --concurrency "$CONCURRENCY" --duration "${DURATION}s" \
    --input-tokens 128 --output-tokens "$OUTPUT_TOKENS" --server-metrics off --output-dir "$OUT/run" \
    >"$OUT/run.log" 2>&1 &
client=$!
# The launcher execs java, so $client is the JVM once it has started.
sleep 2
echo "seconds,requests,rss_mib,heap_used_mib"
start=$(date +%s)
while kill -0 "$client" 2>/dev/null; do
    now=$(( $(date +%s) - start ))
    rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$client/status" 2>/dev/null || echo "")
    heap=$("$JAVA_HOME/bin/jcmd" "$client" GC.heap_info 2>/dev/null \
        | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/,$/, "", v);
              u = substr(v, length(v)); n = substr(v, 1, length(v) - 1);
              printf "%.0f", u == "G" ? n * 1024 : u == "M" ? n : u == "K" ? n / 1024 : n / 1048576; exit } }')
    lines=$( [ -f "$OUT/run/requests.jsonl" ] && wc -l <"$OUT/run/requests.jsonl" || echo 0)
    [ -n "$rss" ] && echo "$now,$lines,$rss,${heap:-}"
    sleep "$INTERVAL"
done
wait "$client" || { echo "the run failed: $OUT/run.log" >&2; exit 1; }
client=
tail -n 25 "$OUT/run.log"
