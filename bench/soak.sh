#!/usr/bin/env bash
# Soak (docs/performance.md): one long llmload run at concurrency 64 against `llmload sim` (fixed
# latency), the run's RSS and Java heap (used, and live after a full collection) sampled every
# SAMPLE seconds. Memory must stay flat: a run
# may not hold more per finished request than its bounded statistics need (issue of a 230k-request
# soak that grew from 1.8 to 3.7 GB). Prints one line per sample and, at the end, the growth from
# the first sample after the warm-up minute to the last.
#
#   bench/soak.sh                       # 10 minutes, concurrency 64, samples every 30 s
#   MINUTES=3 SAMPLE=15 bench/soak.sh   # shorter, on a busy machine
#
# Environment: MINUTES (10), CONCURRENCY (64), SAMPLE seconds (30), OUTPUT_TOKENS (128),
# ITL_MS (5), TTFT_MS (50), SIM_CPU (0) and RUN_CPU (1) where taskset exists, PORT (18556), OUT (a temp dir).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/java-home.sh"
llmload_select_jdk
MINUTES=${MINUTES:-10} CONCURRENCY=${CONCURRENCY:-64} SAMPLE=${SAMPLE:-30} OUTPUT_TOKENS=${OUTPUT_TOKENS:-128}
ITL_MS=${ITL_MS:-5} TTFT_MS=${TTFT_MS:-50} SIM_CPU=${SIM_CPU:-0} RUN_CPU=${RUN_CPU:-1} PORT=${PORT:-18556}
OUT=${OUT:-$(mktemp -d /tmp/soak.XXXXXX)}
mkdir -p "$OUT"
# Runs a command on CPU $1 where that makes sense, in place of the calling (sub)shell, so that $! is its pid.
pinned() { if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then exec taskset -c "$1" "${@:2}"; else exec "${@:2}"; fi; }

"$root/llmload" --version >/dev/null  # builds the jar when the sources are newer
(pinned "$SIM_CPU" "$root/llmload" sim --port "$PORT" --engine fixed --ttft-ms "$TTFT_MS" --itl-ms "$ITL_MS" \
  >"$OUT/sim.log" 2>&1) &
sim=$!
trap 'kill $sim 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null 2>&1 && break; sleep 0.1; done

(pinned "$RUN_CPU" "$root/llmload" run --url "http://127.0.0.1:$PORT" --concurrency "$CONCURRENCY" \
  --duration "${MINUTES}m" --input-tokens 256 --output-tokens "$OUTPUT_TOKENS" --server-metrics off \
  --output-dir "$OUT/run" >"$OUT/run.log" 2>&1) &
run=$!
echo "soak: ${MINUTES} min at concurrency $CONCURRENCY; run pid $run, files in $OUT"
printf '%8s %10s %12s %12s %10s\n' "second" "rss_mib" "heap_used_mib" "heap_live_mib" "requests"
first_rss=""
start=$(date +%s)
while kill -0 "$run" 2>/dev/null; do
  sleep "$SAMPLE"
  kill -0 "$run" 2>/dev/null || break
  now=$(( $(date +%s) - start ))
  rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$run/status" 2>/dev/null || true)
  heap=$({ "$JAVA_HOME/bin/jcmd" "$run" GC.heap_info 2>/dev/null || true; } | { grep -oE 'used [0-9]+[KMG]' || true; } \
    | head -1 | awk '{v=$2; u=substr(v,length(v)); n=substr(v,1,length(v)-1); if (u=="K") n/=1024; if (u=="G") n*=1024; printf "%.0f", n}')
  # GC.class_histogram collects first: its total is the live heap, what the run holds.
  live=$({ "$JAVA_HOME/bin/jcmd" "$run" GC.class_histogram 2>/dev/null || true; } | awk '/^Total/ {printf "%.1f", $3 / 1048576}')
  lines=$(wc -l <"$OUT/run/requests.jsonl" 2>/dev/null || echo 0)
  printf '%8s %10s %12s %12s %10s\n' "$now" "${rss:-?}" "${heap:-?}" "${live:-?}" "$lines"
  if [ -z "$first_rss" ] && [ "$now" -ge 60 ] && [ -n "$rss" ]; then first_rss=$rss; first_live=$live; fi
  last_rss=$rss
  last_live=$live
done
wait "$run" || true
if [ -n "$first_rss" ] && [ -n "${last_rss:-}" ]; then
  echo "soak: RSS after the first minute ${first_rss} MiB, at the end ${last_rss} MiB ($(( last_rss - first_rss )) MiB);" \
    "live heap ${first_live:-?} MiB, at the end ${last_live:-?} MiB"
fi
tail -3 "$OUT/run.log"
