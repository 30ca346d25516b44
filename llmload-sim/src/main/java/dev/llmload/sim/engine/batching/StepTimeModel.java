package dev.llmload.sim.engine.batching;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How long one engine step takes on the modelled hardware, before speed-up and jitter. Pure
 * arithmetic. Each model is built from named coefficients (see {@link StepTimeProfile} for the
 * shipped sets), so any of them can be overridden from configuration.
 */
public sealed interface StepTimeModel {

    /** Duration of a step of this shape in milliseconds; 0 for an empty step. */
    double stepMillis(StepShape step);

    /** The coefficients by name, in the order of the formula. */
    Map<String, Double> coefficients();

    /**
     * NVIDIA Dynamo mocker's default polynomial fit (an H100, 8B-class shape):
     * {@code prefill_ms = prefillA·P² + prefillB·P + prefillC} when the step prefills P > 0 tokens,
     * plus {@code decode_ms = max(decodeMinMs, decodeA·u² + decodeB·u + decodeC)} when it decodes,
     * with u the KV cache usage. Decode cost does not depend on the batch size directly, only through
     * the KV the batch holds.
     */
    record Polynomial(
            double prefillA,
            double prefillB,
            double prefillC,
            double decodeA,
            double decodeB,
            double decodeC,
            double decodeMinMs)
            implements StepTimeModel {

        static Polynomial of(Map<String, Double> c) {
            return new Polynomial(
                    c.get("prefill_a"),
                    c.get("prefill_b"),
                    c.get("prefill_c"),
                    c.get("decode_a"),
                    c.get("decode_b"),
                    c.get("decode_c"),
                    c.get("decode_min_ms"));
        }

        @Override
        public double stepMillis(StepShape step) {
            double ms = 0;
            int p = step.prefillTokens();
            if (p > 0) {
                ms += prefillA * p * (double) p + prefillB * p + prefillC;
            }
            if (step.decodeSequences() > 0) {
                double u = step.kvCacheUsage();
                ms += Math.max(decodeMinMs, decodeA * u * u + decodeB * u + decodeC);
            }
            return ms;
        }

        @Override
        public Map<String, Double> coefficients() {
            Map<String, Double> c = new LinkedHashMap<>();
            c.put("prefill_a", prefillA);
            c.put("prefill_b", prefillB);
            c.put("prefill_c", prefillC);
            c.put("decode_a", decodeA);
            c.put("decode_b", decodeB);
            c.put("decode_c", decodeC);
            c.put("decode_min_ms", decodeMinMs);
            return c;
        }
    }

    /**
     * A model linear in what a step computes, the form {@code llmload fit} estimates from a
     * server's runs (docs/simulator.md, "Fitting a profile"):
     * <pre>
     * step_ms = stepMs + perSequenceMs·batch + contextMsPer1k·contextTokens/1000
     *         + prefillMsPerToken·P + prefillMsPerTokenSq·P²
     * </pre>
     * for a non-empty step prefilling P tokens. The first three terms are the cost of a decode
     * step (weights, per-sequence overhead, attention reading the KV context); the last two the
     * cost of the prompt tokens, the quadratic one the growth of attention with the prompt.
     */
    record Linear(
            double stepMs,
            double perSequenceMs,
            double contextMsPer1k,
            double prefillMsPerToken,
            double prefillMsPerTokenSq)
            implements StepTimeModel {

        static Linear of(Map<String, Double> c) {
            return new Linear(
                    c.get("step_ms"),
                    c.get("per_sequence_ms"),
                    c.get("context_ms_per_1k_tokens"),
                    c.get("prefill_ms_per_token"),
                    c.get("prefill_ms_per_token_sq"));
        }

        @Override
        public double stepMillis(StepShape step) {
            if (step.batchSize() == 0) {
                return 0;
            }
            double p = step.prefillTokens();
            return stepMs
                    + perSequenceMs * step.batchSize()
                    + contextMsPer1k * step.contextTokens() / 1000.0
                    + prefillMsPerToken * p
                    + prefillMsPerTokenSq * p * p;
        }

        @Override
        public Map<String, Double> coefficients() {
            Map<String, Double> c = new LinkedHashMap<>();
            c.put("step_ms", stepMs);
            c.put("per_sequence_ms", perSequenceMs);
            c.put("context_ms_per_1k_tokens", contextMsPer1k);
            c.put("prefill_ms_per_token", prefillMsPerToken);
            c.put("prefill_ms_per_token_sq", prefillMsPerTokenSq);
            return c;
        }
    }

    /**
     * A roofline model of a dense transformer: a step reads the weights and the KV context it
     * attends to from memory, and computes 2 FLOPs per parameter per token; it takes the longer of
     * the two, plus fixed per-step and per-sequence overheads:
     * <pre>
     * step_ms = stepOverheadMs + perSequenceMs·batch
     *         + 1000·max((weightBytes + contextTokens·kvBytesPerToken) / (memoryBandwidth·bandwidthEfficiency),
     *                    2·parameters·(prefillTokens + decodeTokens) / (peakFlops·mfu))
     * </pre>
     * Attention FLOPs (quadratic in the prompt) are left out, so very long prompts come out a little
     * cheap.
     */
    record Roofline(
            double stepOverheadMs,
            double perSequenceMs,
            double parameters,
            double weightBytes,
            double kvBytesPerToken,
            double memoryBandwidth,
            double bandwidthEfficiency,
            double peakFlops,
            double mfu)
            implements StepTimeModel {

        static Roofline of(Map<String, Double> c) {
            return new Roofline(
                    c.get("step_overhead_ms"),
                    c.get("per_sequence_ms"),
                    c.get("parameters"),
                    c.get("weight_bytes"),
                    c.get("kv_bytes_per_token"),
                    c.get("memory_bandwidth"),
                    c.get("bandwidth_efficiency"),
                    c.get("peak_flops"),
                    c.get("mfu"));
        }

        @Override
        public double stepMillis(StepShape step) {
            if (step.batchSize() == 0) {
                return 0;
            }
            double memorySeconds =
                    (weightBytes + step.contextTokens() * kvBytesPerToken) / (memoryBandwidth * bandwidthEfficiency);
            double computeSeconds = 2 * parameters * step.scheduledTokens() / (peakFlops * mfu);
            return stepOverheadMs + perSequenceMs * step.batchSize() + 1000 * Math.max(memorySeconds, computeSeconds);
        }

        @Override
        public Map<String, Double> coefficients() {
            Map<String, Double> c = new LinkedHashMap<>();
            c.put("step_overhead_ms", stepOverheadMs);
            c.put("per_sequence_ms", perSequenceMs);
            c.put("parameters", parameters);
            c.put("weight_bytes", weightBytes);
            c.put("kv_bytes_per_token", kvBytesPerToken);
            c.put("memory_bandwidth", memoryBandwidth);
            c.put("bandwidth_efficiency", bandwidthEfficiency);
            c.put("peak_flops", peakFlops);
            c.put("mfu", mfu);
            return c;
        }
    }
}
