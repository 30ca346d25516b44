package dev.llmload.sim.engine;

import java.util.random.RandomGenerator;

/**
 * The arithmetic of {@link FixedLatencyEngine}: per-request latency formulas in the style of
 * llm-d-inference-sim, with no batch interference. Pure and thread-agnostic; the caller supplies
 * the random source.
 *
 * @param ttftMs            time to first token of an empty prompt
 * @param prefillMsPerToken added to the TTFT per prompt token
 * @param itlMs             gap between consecutive tokens
 * @param jitter            each delay is scaled by a uniform factor in [1 − jitter, 1 + jitter]; 0 to 1
 * @param speedup           every delay is divided by this (≥ 1 runs faster than configured)
 * @param meanOutputTokens  mean length of a generation that ends on its own (EOS); the end is
 *                          drawn with a constant per-token probability 1 / meanOutputTokens
 */
public record FixedLatencyModel(
        double ttftMs, double prefillMsPerToken, double itlMs, double jitter, double speedup, int meanOutputTokens) {

    public FixedLatencyModel {
        if (ttftMs < 0 || prefillMsPerToken < 0 || itlMs < 0) {
            throw new IllegalArgumentException("latencies must not be negative");
        }
        if (jitter < 0 || jitter > 1) {
            throw new IllegalArgumentException("jitter must be within [0, 1]: " + jitter);
        }
        if (!(speedup > 0)) {
            throw new IllegalArgumentException("speedup must be positive: " + speedup);
        }
        if (meanOutputTokens < 1) {
            throw new IllegalArgumentException("meanOutputTokens must be at least 1: " + meanOutputTokens);
        }
    }

    /** How long a generation runs and why it ends. */
    public record Plan(int outputTokens, FinishReason reason) {}

    public long ttftNanos(int promptTokens, RandomGenerator random) {
        return jittered(ttftMs + prefillMsPerToken * promptTokens, random);
    }

    public long itlNanos(RandomGenerator random) {
        return jittered(itlMs, random);
    }

    /**
     * With {@code ignoreEos} exactly {@code maxTokens}; otherwise a geometric length (at least
     * {@code minTokens}, at least 1) cut at {@code maxTokens}, which then ends with {@code length}.
     */
    public Plan plan(int maxTokens, int minTokens, boolean ignoreEos, RandomGenerator random) {
        if (ignoreEos) {
            return new Plan(maxTokens, FinishReason.LENGTH);
        }
        int natural = Math.max(Math.max(minTokens, 1), sampleGeometric(random));
        return natural >= maxTokens ? new Plan(maxTokens, FinishReason.LENGTH) : new Plan(natural, FinishReason.STOP);
    }

    /** Number of tokens up to and including the first EOS, each token being EOS with p = 1/mean. */
    private int sampleGeometric(RandomGenerator random) {
        if (meanOutputTokens == 1) {
            return 1;
        }
        double p = 1.0 / meanOutputTokens;
        double u = 1.0 - random.nextDouble(); // (0, 1], so the logarithm is finite
        double length = Math.ceil(Math.log(u) / Math.log1p(-p));
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, length));
    }

    private long jittered(double ms, RandomGenerator random) {
        double factor = jitter == 0 ? 1 : 1 + jitter * (2 * random.nextDouble() - 1);
        return Math.round(ms * factor / speedup * 1_000_000);
    }
}
