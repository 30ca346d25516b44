#!/usr/bin/env bash
# Capacity of the simulated engine on one core (docs/performance.md): `llmload sim` pinned to one
# CPU, a thin streaming driver pinned to another, STREAMS streams always in flight. Prints, over
# the window after the warm-up, the driver's received events and tokens per second, the server's
# own token rate from /metrics, the running-batch size, the engine's step lag
# (llmload_sim_step_lag_seconds) and the token write delay (llmload_sim_token_write_delay_seconds).
#
#   bench/sim-capacity.sh                       # 5000 streams, 45 s, warm-up 15 s, speedup 4
#   SPEEDUP=3 bench/sim-capacity.sh
#   STREAMS=2000 DURATION=30 SPEEDUP=1 bench/sim-capacity.sh
#   DRIVER_CPU=1-3 RPS=1 bench/sim-capacity.sh  # a bigger host: three driver threads, and loopback
#                                               # delivery on their CPUs, as a real network would put it
#
# Environment: STREAMS (5000), DURATION seconds (45), WARMUP seconds (15), PROFILE (h100-llama3-8b,
# whose decode steps slow down with the batch, so SPEEDUP sets the token rate), SPEEDUP (4),
# MAX_TOKENS per request (1024; output lengths are the engine's own draws, mean 256), SIM_CPU (0),
# SIM_JAVA_OPTS (JVM options of the simulator, e.g. -XX:+PreserveFramePointer for perf),
# DRIVER_CPU (1; a taskset list, one driver thread per CPU in it), RPS (0; 1 moves the receiving
# side's loopback work to the driver's CPUs through /sys/class/net/lo/queues/rx-0/rps_cpus, as root,
# and puts it back at the end), PORT (18555), OUT (a temp dir).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/java-home.sh"
llmload_select_jdk
STREAMS=${STREAMS:-5000} DURATION=${DURATION:-45} WARMUP=${WARMUP:-15} SPEEDUP=${SPEEDUP:-4} PROFILE=${PROFILE:-h100-llama3-8b}
MAX_TOKENS=${MAX_TOKENS:-1024} SIM_CPU=${SIM_CPU:-0} DRIVER_CPU=${DRIVER_CPU:-1} PORT=${PORT:-18555} RPS=${RPS:-0}
OUT=${OUT:-$(mktemp -d /tmp/sim-capacity.XXXXXX)}
mkdir -p "$OUT"

(cd "$root" && ./mvnw -B -q -Pbench -DskipTests install >"$OUT/build.log" 2>&1) || { echo "build failed: $OUT/build.log" >&2; exit 1; }
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED)

# Room for every stream in the batch and the KV cache (prompt + MAX_TOKENS each, 16-token blocks,
# half the cache spare), so the run measures streaming, not queueing.
blocks=$(( STREAMS * (MAX_TOKENS / 16 + 2) * 2 ))
# shellcheck disable=SC2086 # SIM_JAVA_OPTS is a list of options
taskset -c "$SIM_CPU" "${java[@]}" ${SIM_JAVA_OPTS:-} -jar "$root/llmload-cli/target/llmload.jar" sim --port "$PORT" \
    --profile "$PROFILE" --speedup "$SPEEDUP" --max-num-seqs "$((STREAMS + 64))" --num-blocks "$blocks" >"$OUT/sim.log" 2>&1 &
sim_pid=$!
driver_pid=
rps_file=/sys/class/net/lo/queues/rx-0/rps_cpus
rps_before=
cleanup() {
    [ -n "$driver_pid" ] && kill "$driver_pid" 2>/dev/null
    kill "$sim_pid" 2>/dev/null
    [ -n "$rps_before" ] && echo "$rps_before" >"$rps_file"
    wait 2>/dev/null || true
}
trap cleanup EXIT
driver_threads=$(taskset -c "$DRIVER_CPU" nproc)
if [ "$RPS" = 1 ]; then
    rps_before=$(cat "$rps_file")
    taskset -c "$DRIVER_CPU" python3 -c 'import os; print("%x" % sum(1 << c for c in os.sched_getaffinity(0)))' >"$rps_file" \
        || { echo "RPS=1 needs root to write $rps_file" >&2; rps_before=; exit 1; }
fi
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.2; done

taskset -c "$DRIVER_CPU" "${java[@]}" -cp "$root/llmload-bench/target/benchmarks.jar" dev.llmload.bench.StreamDriver \
    --url "http://127.0.0.1:$PORT" --streams "$STREAMS" --max-tokens "$MAX_TOKENS" \
    --seconds "$DURATION" --warmup "$WARMUP" --threads "$driver_threads" >"$OUT/driver.log" 2>&1 &
driver_pid=$!
# Its clock starts with the driver's, so both count the warm-up from the same moment.
taskset -c "$DRIVER_CPU" python3 "$root/bench/scrape-metrics.py" "$PORT" "$driver_pid" "$sim_pid" "$OUT/metrics.tsv" \
    "$WARMUP" "$(taskset -c "$SIM_CPU" python3 -c 'import os; print(min(os.sched_getaffinity(0)))')" >"$OUT/write-delay.txt"
wait "$driver_pid" || true
driver_pid=

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sim on CPU $SIM_CPU, driver on CPU $DRIVER_CPU ($driver_threads threads, RPS=$RPS); $STREAMS streams, max_tokens $MAX_TOKENS (no ignore_eos), speedup $SPEEDUP; files in $OUT"
grep RESULT "$OUT/driver.log" || { echo "driver failed:"; tail -5 "$OUT/driver.log"; exit 1; }
# Columns of metrics.tsv: seconds since start, generation tokens, running, waiting, step lag (s), sim CPU (s),
# sim user (s), sim system (s), softirq of the sim's CPU (s).
lag_p50=$(awk -v warmup="$WARMUP" '$1 >= warmup { print $5 }' "$OUT/metrics.tsv" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", 1000 * v[int((NR + 1) / 2)] }')
awk -v warmup="$WARMUP" -v lag_p50="$lag_p50" '$1 >= warmup {
    if (n == 0) { t0 = $1; g0 = $2; c0 = $6; u0 = $7; s0 = $8; q0 = $9; minrun = $3 }
    t1 = $1; g1 = $2; c1 = $6; u1 = $7; s1 = $8; q1 = $9; n++
    if ($3 > maxrun) maxrun = $3; if ($3 < minrun) minrun = $3; if ($4 > maxwait) maxwait = $4; if ($5 > maxlag) maxlag = $5 }
  END { printf "SERVER generation_tokens_per_s=%.0f running_min=%d running_max=%d waiting_max=%d step_lag_p50_ms=%s step_lag_max_ms=%.2f\n",
        (g1 - g0) / (t1 - t0), minrun, maxrun, maxwait, lag_p50, 1000 * maxlag
        printf "SIM_CPU share_of_one_core=%.2f tokens_per_cpu_second=%.0f scrapes=%d\n",
        (c1 - c0) / (t1 - t0), (g1 - g0) / (c1 - c0), n
        printf "SIM_CPU_PER_TOKEN user_us=%.2f system_us=%.2f (of which softirq on its CPU: %.2f)\n",
        1e6 * (u1 - u0) / (g1 - g0), 1e6 * (s1 - s0) / (g1 - g0), 1e6 * (q1 - q0) / (g1 - g0) }' "$OUT/metrics.tsv"
cat "$OUT/write-delay.txt"
