#!/usr/bin/env bash
# The digital twin at full size (docs/simulator.md, "Fitting a profile"): the built-in simulator
# with hidden engine parameters, a sweep at three concurrencies over loopback, `llmload fit` on it,
# then a held-out open-loop run at another rate and prompt length against `llmload whatif`'s
# prediction, and the capacity under an SLO of the fitted profile against the hidden engine's own
# (both searched in virtual time). Prints each fitted parameter against its hidden value, and the
# prediction errors.
#
# The held-out rate lies between the request rates the sweep's two lightest points measured, and
# below the hidden engine's capacity under the SLO (at most 80% of it): above capacity the queue
# grows for as long as the run lasts, and its latencies measure the run's length, not the engine.
# whatif predicts from PREDICT_REQUESTS arrivals of its own (the engine's steady state); the
# hidden engine's own prediction is printed beside the twin's, so that what is left between it and
# the measurement (the held-out run's own draw, the shared host's timing) can be told apart from
# what the fit got wrong.
#
#   bench/twin.sh
#   REQUESTS=300 HELD_OUT_REQUESTS=500 bench/twin.sh
#
# Environment: BUDGET, the hidden engine's maxNumBatchedTokens, also given to fit (8192),
# REQUESTS per sweep point (120), CONCURRENCIES (4,12,32), INPUT (uniform:100:1500),
# OUTPUT tokens (64), HELD_OUT_RATE req/s (chosen as above), HELD_OUT_INPUT tokens (600),
# HELD_OUT_REQUESTS (200), PREDICT_REQUESTS (4000), SLO (p99_ttft:500,p99_itl:100), OUT (a temp dir).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/java-home.sh"
llmload_select_jdk
BUDGET=${BUDGET:-8192} REQUESTS=${REQUESTS:-120} CONCURRENCIES=${CONCURRENCIES:-4,12,32} INPUT=${INPUT:-uniform:100:1500} OUTPUT=${OUTPUT:-64}
HELD_OUT_RATE=${HELD_OUT_RATE:-} HELD_OUT_INPUT=${HELD_OUT_INPUT:-600} HELD_OUT_REQUESTS=${HELD_OUT_REQUESTS:-200}
PREDICT_REQUESTS=${PREDICT_REQUESTS:-4000}
SLO=${SLO:-p99_ttft:500,p99_itl:100}
OUT=${OUT:-$(mktemp -d /tmp/twin.XXXXXX)}
mkdir -p "$OUT"

(cd "$root" && ./mvnw -o -B -q -pl llmload-cli -am package -DskipTests >"$OUT/build.log" 2>&1) \
    || { echo "build failed: $OUT/build.log" >&2; exit 1; }
llmload=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar "$root/llmload-cli/target/llmload.jar")

# The hidden engine: the linear step-time profile, 16 sequences, 1,200 blocks of 16 tokens.
cat >"$OUT/hidden.yaml" <<YAML
seed: 1
maxModelLen: 4096
batching:
  profile: linear
  coefficients: {step_ms: 12, per_sequence_ms: 0.8, context_ms_per_1k_tokens: 3,
                 prefill_ms_per_token: 0.04, prefill_ms_per_token_sq: 2.0e-5}
  maxNumSeqs: 16
  numBlocks: 1200
  maxNumBatchedTokens: $BUDGET
YAML

echo "sweep: concurrency $CONCURRENCIES, $REQUESTS requests each, input $INPUT, output $OUTPUT, budget $BUDGET" >&2
"${llmload[@]}" sweep --concurrency "$CONCURRENCIES" --num-requests "$REQUESTS" --input-tokens "$INPUT" \
    --output-tokens "$OUTPUT" --scrape-interval 250ms --sim-config "$OUT/hidden.yaml" \
    --output-dir "$OUT/sweep" >"$OUT/sweep.log" 2>&1
start=$(date +%s.%N)
"${llmload[@]}" fit "$OUT/sweep" --max-num-batched-tokens "$BUDGET" -o "$OUT/profile.yaml" >"$OUT/fit.log" 2>&1
fit_s=$(echo "$(date +%s.%N) - $start" | bc)

# The hidden engine's capacity under the SLO for the held-out prompts (virtual time), then the rate.
"${llmload[@]}" whatif --profile "$OUT/hidden.yaml" --input-tokens "$HELD_OUT_INPUT" --output-tokens "$OUTPUT" \
    --num-requests "$PREDICT_REQUESTS" --slo "$SLO" >"$OUT/capacity-hidden.txt"
if [ -z "$HELD_OUT_RATE" ]; then
    HELD_OUT_RATE=$(python3 - "$OUT" <<'PY'
import json, pathlib, re, sys
out = pathlib.Path(sys.argv[1])
rates = sorted(json.load(open(p))["results"]["request_throughput"] for p in out.glob("sweep/*/report.json"))
cap = float(re.search(r"Capacity under \S+: ([\d.e+]+) req/s", open(out / "capacity-hidden.txt").read()).group(1))
print(f"{min((rates[0] + rates[1]) / 2, 0.8 * cap):.3g}")
PY
)
fi

echo "held out: $HELD_OUT_RATE req/s, $HELD_OUT_REQUESTS requests of $HELD_OUT_INPUT input tokens" >&2
"${llmload[@]}" run --request-rate "$HELD_OUT_RATE" --num-requests "$HELD_OUT_REQUESTS" \
    --input-tokens "$HELD_OUT_INPUT" --output-tokens "$OUTPUT" --sim-config "$OUT/hidden.yaml" \
    --output-dir "$OUT/held-out" >"$OUT/held-out.log" 2>&1
isl=$(python3 -c "import json;print(round(json.load(open('$OUT/held-out/report.json'))['results']['input_tokens']['mean']))")
start=$(date +%s.%N)
"${llmload[@]}" whatif --profile "$OUT/profile.yaml" --rate "$HELD_OUT_RATE" --input-tokens "$isl" \
    --output-tokens "$OUTPUT" --num-requests "$PREDICT_REQUESTS" --slo "$SLO" >"$OUT/whatif.txt"
whatif_s=$(echo "$(date +%s.%N) - $start" | bc)
"${llmload[@]}" whatif --profile "$OUT/hidden.yaml" --rate "$HELD_OUT_RATE" --input-tokens "$isl" \
    --output-tokens "$OUTPUT" --num-requests "$PREDICT_REQUESTS" --slo "$SLO" >"$OUT/whatif-hidden.txt"

python3 - "$OUT" "$fit_s" "$whatif_s" <<'PY'
import json, re, sys
out, fit_s, whatif_s = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
hidden = {"step_ms": 12, "per_sequence_ms": 0.8, "context_ms_per_1k_tokens": 3, "prefill_ms_per_token": 0.04,
          "prefill_ms_per_token_sq": 2e-5, "maxNumSeqs": 16, "numBlocks": 1200}
print(f"fit ({fit_s:.1f} s):")
for line in open(f"{out}/fit.log"):
    m = re.match(r"\s+(\w+) = ([-\d.e]+)(.*)", line)
    if m and m.group(1) in hidden:
        v, h = float(m.group(2)), hidden[m.group(1)]
        print(f"  {m.group(1):26s} {v:12.6g}  hidden {h:<8g} {100 * (v - h) / h:+6.1f}%{m.group(3)}")
def predicted(path):
    rows, cap = {}, None
    for line in open(path):
        m = re.match(r"\s+(ttft|itl|tpot|e2e)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", line)
        if m and m.group(1) not in rows:
            rows[m.group(1)] = (float(m.group(3)), float(m.group(5)))
        m = re.match(r"Capacity under \S+: ([\d.e+]+) req/s", line)
        if m:
            cap = float(m.group(1))
    return rows, cap
rows, cap = predicted(f"{out}/whatif.txt")
hidden_rows, true_cap = predicted(f"{out}/whatif-hidden.txt")
res = json.load(open(f"{out}/held-out/report.json"))["results"]
print(f"held-out run against whatif ({whatif_s:.1f} s for the prediction and the capacity search; "
      f"the hidden engine's own prediction in brackets):")
for metric, key in (("ttft", "ttft_ms"), ("itl", "itl_ms")):
    for i, p in enumerate(("p50", "p99")):
        obs, pred, own = res[key][p], rows[metric][i], hidden_rows[metric][i]
        print(f"  {metric} {p}: measured {obs:8.2f} ms, predicted {pred:8.2f} ms, {100 * (pred - obs) / obs:+6.1f}%"
              f"  [hidden {own:8.2f} ms, {100 * (own - obs) / obs:+6.1f}%]")
print(f"capacity: fitted profile {cap:.3g} req/s, hidden engine {true_cap:.3g} req/s, "
      f"{100 * (cap - true_cap) / true_cap:+.1f}%")
PY
echo "files: $OUT" >&2
