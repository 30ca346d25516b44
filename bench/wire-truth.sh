#!/usr/bin/env bash
# The wire's truth (docs/performance.md): `llmload run` against `llmload sim` on 127.0.0.1 with
# tcpdump capturing the loopback interface, at each number of streams in turn; prints per run the
# client's TTFT and per-gap error against the packets, and the simulator's ground-truth log against
# the same packets (bench/wire-truth.py says how, and which packet stands for an event).
#
#   bench/wire-truth.sh                           # 16, 64, 256 and 1000 streams
#   STREAMS=64 bench/wire-truth.sh                # one run: 64 streams, 128 requests
#   STREAMS=64 API=chat OUTPUT_TOKENS=128 bench/wire-truth.sh
#
# Environment: STREAMS ("16 64 256 1000"), REQUESTS_PER_STREAM (2), INPUT_TOKENS (256),
# OUTPUT_TOKENS (64), API (tgi; the analysis knows chat's, completions', TGI's and Ollama's token
# events), PORT (18557), SIM_ARGS (flags added to `llmload sim`, e.g. "--engine fixed"), RUN_ARGS
# (flags added to `llmload run`), SIM_JAVA_OPTS (JVM options of the simulator alone, e.g.
# -XX:TieredStopAtLevel=1), SIM_CPUS and CLIENT_CPUS (pin each to CPUs with taskset, e.g. 0 and 1:
# each process a core of its own), KEEP_PCAP (1: keep each capture), OUT (a temp dir).
# Needs tcpdump (installed with apt-get when missing and possible) and the right to capture
# (root or CAP_NET_RAW); it fails, saying so, when the kernel dropped any packet of a capture.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if ! command -v tcpdump >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "wire-truth: installing tcpdump" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tcpdump >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tcpdump >/dev/null 2>&1; } || true
  fi
  command -v tcpdump >/dev/null 2>&1 || { echo "wire-truth: tcpdump missing (apt-get install tcpdump)" >&2; exit 1; }
fi
OUT=${OUT:-$(mktemp -d /tmp/wire-truth.XXXXXX)}
mkdir -p "$OUT"
(cd "$root" && ./mvnw -B -q -pl llmload-cli -am package -DskipTests >"$OUT/build.log" 2>&1) \
    || { echo "build failed: $OUT/build.log" >&2; exit 1; }
touch "$root/llmload-cli/target/llmload.jar"   # the launcher then runs it as built
"$root/llmload" --version >/dev/null            # its class-data archive, before any measured run
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); kernel $(uname -r); $(tcpdump --version 2>&1 | head -1); files in $OUT"
for streams in ${STREAMS:-16 64 256 1000}; do
  python3 "$root/bench/wire-truth.py" run --streams "$streams" \
      --requests $((streams * ${REQUESTS_PER_STREAM:-2})) --input-tokens "${INPUT_TOKENS:-256}" \
      --output-tokens "${OUTPUT_TOKENS:-64}" --api "${API:-tgi}" --port "${PORT:-18557}" --out "$OUT" \
      --sim-args="${SIM_ARGS:-}" --run-args="${RUN_ARGS:-}" ${KEEP_PCAP:+--keep-pcap}
done
