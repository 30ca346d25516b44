package dev.llmload.sim.engine.batching;

import java.util.SplittableRandom;

/**
 * The length a generation would reach on its own (its end-of-sequence token) when the request
 * does not set {@code ignore_eos}: log-normal with the given mean, so lengths are positive and
 * right-skewed like real chat answers. The request's {@code min_tokens} and {@code max_tokens}
 * then clamp the sample.
 *
 * @param mean  mean length in tokens
 * @param sigma standard deviation of the length's logarithm; 0 gives exactly {@code mean}
 */
public record OutputLength(double mean, double sigma) {

    public OutputLength {
        if (!(mean >= 1) || !Double.isFinite(mean)) {
            throw new IllegalArgumentException("outputLength.mean must be at least 1, was " + mean);
        }
        if (!(sigma >= 0) || !Double.isFinite(sigma)) {
            throw new IllegalArgumentException("outputLength.sigma must be at least 0, was " + sigma);
        }
    }

    /** A length in [max(1, minTokens), maxTokens]; needs {@code maxTokens >= max(1, minTokens)}. */
    int sample(SplittableRandom random, int minTokens, int maxTokens) {
        double length = sigma == 0 ? mean : mean * Math.exp(sigma * random.nextGaussian() - sigma * sigma / 2);
        long rounded = Math.round(length);
        return (int) Math.min(maxTokens, Math.max(Math.max(1, minTokens), rounded));
    }
}
