#!/usr/bin/env bash
# What llmload's own client costs (docs/performance.md): the fixed-latency simulator on one CPU,
# `llmload run` through the launcher on the other, at each concurrency in turn. Prints per run the
# client's CPU per streamed token (user and system, from /proc, net of its CPU before the load),
# peak RSS and RSS per stream, CPU and wall time before the load, its self-measured event-loop lag,
# and the per-gap inter-token and first-token differences against the simulator's ground truth (the
# gaps' also for the run's first second alone).
# Ends with the CPU and wall time of `llmload --version`.
#
#   bench/client-cost.sh                                # concurrency 64, 512 and 2000
#   CONCURRENCY=512 ROUNDS=4 bench/client-cost.sh
#   LLMLOAD_JAVA_OPTS='-XX:+UseZGC' bench/client-cost.sh   # the client on other JVM options
#   LLMLOAD_CDS=off bench/client-cost.sh                 # both without the launcher's class-data archive
#   RATE="200 500" ROUNDS=20 bench/client-cost.sh        # open loops instead, with the send lag of the first second
#   CLIENT=asyncio CONCURRENCY=16 bench/client-cost.sh   # the yardstick: a plain asyncio client (bench/asyncio-client.py)
#   RUN_ARGS="--server-metrics off" bench/client-cost.sh # flags added to llmload run
#   TTY=1 bench/client-cost.sh                           # the client on a pseudo-terminal: its live view drawn
#   CONCURRENCY=64 ROUNDS=2 INPUT_TOKENS=256 RUN_ARGS="--api tgi" bench/client-cost.sh   # the first second's case
#
# Environment: CONCURRENCY ("64 512 2000"), ROUNDS (8: requests = ROUNDS x concurrency, or ROUNDS x
# 100 at each RATE), RATE (none: closed loops; else open loops at these requests per second),
# INPUT_TOKENS (64), OUTPUT_TOKENS (64), TTFT_MS (30), ITL_MS (40), SIM_CPU (0), CLIENT_CPU (1; empty: no pinning),
# SIM_JAVA_OPTS, LLMLOAD_JAVA_OPTS (the client's, added to the launcher's), PORT (18556), OUT (a temp dir),
# CLIENT (llmload; asyncio: bench/asyncio-client.py instead, closed loops only), RUN_ARGS (none),
# TTY (none; 1: the client on a pseudo-terminal of script(1), so that it draws the live view).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/java-home.sh"
llmload_select_jdk
OUT=${OUT:-$(mktemp -d /tmp/client-cost.XXXXXX)}
mkdir -p "$OUT"
(cd "$root" && ./mvnw -B -q -pl llmload-cli -am package -DskipTests >"$OUT/build.log" 2>&1) \
    || { echo "build failed: $OUT/build.log" >&2; exit 1; }
touch "$root/llmload-cli/target/llmload.jar"   # the launcher then runs it as built
# The launcher makes a class-data archive per set of JVM options on its first launch after a build:
# here, for the simulator's options and the client's, rather than inside a measured start-up.
LLMLOAD_JAVA_OPTS=${SIM_JAVA_OPTS:-} "$root/llmload" --version >/dev/null
"$root/llmload" --version >/dev/null
if [ "$(nproc)" -lt 2 ]; then SIM_CPU= CLIENT_CPU=; fi
export SIM_CPU=${SIM_CPU-0} CLIENT_CPU=${CLIENT_CPU-1}
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "simulator on CPU ${SIM_CPU:-any}, client on CPU ${CLIENT_CPU:-any}; client JVM options: launcher's + '${LLMLOAD_JAVA_OPTS:-}'; files in $OUT"
python3 "$root/bench/client-cost.py" "$OUT"
/usr/bin/time -f "llmload --version: %U s user, %S s system, %e s wall, max RSS %M KiB" "$root/llmload" --version >/dev/null
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
