package dev.llmload.sim.engine.batching;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.util.Map;

/**
 * Configuration of the {@link BatchingEngine}. Defaults ({@link #defaults()}) follow vLLM and the
 * Dynamo mocker. Read from YAML or JSON through {@link Builder}, so absent keys keep their defaults.
 *
 * @param maxNumSeqs           most sequences in the running batch (vLLM {@code --max-num-seqs})
 * @param maxNumBatchedTokens  token budget of one step, prefill chunks plus decode tokens
 *                             (vLLM {@code --max-num-batched-tokens}); long prompts are prefilled in chunks
 * @param numBlocks            KV cache size in blocks (vLLM {@code num_gpu_blocks})
 * @param blockSize            tokens per KV block
 * @param watermark            share of blocks a new request must leave free when it is admitted
 * @param enablePrefixCaching  reuse the KV blocks of identical prompt prefixes
 * @param maxModelLen          longest prompt + {@code max_tokens} accepted; longer requests get 400
 * @param maxWaiting           most requests waiting for the batch before new ones get 429; 0 = unbounded
 * @param profile              the step-time model and its default coefficients
 * @param coefficients         overrides of the profile's coefficients, by name
 * @param speedup              every step takes {@code 1/speedup} of its modelled time
 * @param jitter               σ of a log-normal factor (mean 1) applied to each step time; 0 = none
 * @param seed                 seeds output lengths and jitter, so runs repeat exactly
 * @param outputLength         natural output length of requests without {@code ignore_eos}
 * @param tokensPerStep        tokens each decoding sequence gains per step; above 1 emulates
 *                             speculative decoding with every draft token accepted
 */
@JsonDeserialize(builder = BatchingEngineConfig.Builder.class)
public record BatchingEngineConfig(
        int maxNumSeqs,
        int maxNumBatchedTokens,
        int numBlocks,
        int blockSize,
        double watermark,
        boolean enablePrefixCaching,
        int maxModelLen,
        int maxWaiting,
        StepTimeProfile profile,
        Map<String, Double> coefficients,
        double speedup,
        double jitter,
        long seed,
        OutputLength outputLength,
        int tokensPerStep) {

    public BatchingEngineConfig {
        positive("maxNumSeqs", maxNumSeqs);
        positive("maxNumBatchedTokens", maxNumBatchedTokens);
        positive("numBlocks", numBlocks);
        positive("blockSize", blockSize);
        positive("maxModelLen", maxModelLen);
        positive("tokensPerStep", tokensPerStep);
        if (!(watermark >= 0 && watermark < 1)) {
            throw new IllegalArgumentException("watermark must be in [0, 1), was " + watermark);
        }
        if (maxWaiting < 0) {
            throw new IllegalArgumentException("maxWaiting must be 0 (unbounded) or positive, was " + maxWaiting);
        }
        if (!(speedup > 0) || !Double.isFinite(speedup)) {
            throw new IllegalArgumentException("speedup must be positive, was " + speedup);
        }
        if (!(jitter >= 0) || !Double.isFinite(jitter)) {
            throw new IllegalArgumentException("jitter must be at least 0, was " + jitter);
        }
        if (profile == null || outputLength == null || coefficients == null) {
            throw new IllegalArgumentException("profile, coefficients and outputLength must be set");
        }
        coefficients = Map.copyOf(coefficients);
        profile.model(coefficients); // rejects unknown coefficient names now rather than at start-up
        if (tokensPerStep > maxNumBatchedTokens) {
            throw new IllegalArgumentException("tokensPerStep (" + tokensPerStep
                    + ") cannot exceed maxNumBatchedTokens (" + maxNumBatchedTokens + ")");
        }
        // vLLM refuses to start when one request of maxModelLen tokens cannot fit in the cache;
        // here it would wait forever, so refuse the configuration the same way.
        long usableTokens = (long) (numBlocks - watermarkBlocks(watermark, numBlocks)) * blockSize;
        if (maxModelLen > usableTokens) {
            throw new IllegalArgumentException("maxModelLen " + maxModelLen + " does not fit in the KV cache: "
                    + numBlocks + " blocks of " + blockSize + " tokens less the watermark hold " + usableTokens
                    + " tokens; raise numBlocks or lower maxModelLen");
        }
    }

    public static BatchingEngineConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder()
                .maxNumSeqs(maxNumSeqs)
                .maxNumBatchedTokens(maxNumBatchedTokens)
                .numBlocks(numBlocks)
                .blockSize(blockSize)
                .watermark(watermark)
                .enablePrefixCaching(enablePrefixCaching)
                .maxModelLen(maxModelLen)
                .maxWaiting(maxWaiting)
                .profile(profile)
                .coefficients(coefficients)
                .speedup(speedup)
                .jitter(jitter)
                .seed(seed)
                .outputLength(outputLength)
                .tokensPerStep(tokensPerStep);
    }

    /** The step-time model: the profile with the coefficient overrides applied. */
    public StepTimeModel stepTimeModel() {
        return profile.model(coefficients);
    }

    /** Blocks that admission of a new request must leave free. */
    int watermarkBlocks() {
        return watermarkBlocks(watermark, numBlocks);
    }

    private static int watermarkBlocks(double watermark, int numBlocks) {
        return (int) (watermark * numBlocks);
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** Starts from the defaults; each setter replaces one field. */
    @JsonPOJOBuilder(withPrefix = "")
    public static final class Builder {
        private int maxNumSeqs = 256;
        private int maxNumBatchedTokens = 8192;
        private int numBlocks = 16384;
        private int blockSize = 16;
        private double watermark = 0.01;
        private boolean enablePrefixCaching = true;
        private int maxModelLen = 8192;
        private int maxWaiting = 0;
        private StepTimeProfile profile = StepTimeProfile.DYNAMO;
        private Map<String, Double> coefficients = Map.of();
        private double speedup = 1;
        private double jitter = 0;
        private long seed = 0;
        private OutputLength outputLength = new OutputLength(256, 0.6);
        private int tokensPerStep = 1;

        public Builder maxNumSeqs(int v) {
            maxNumSeqs = v;
            return this;
        }

        public Builder maxNumBatchedTokens(int v) {
            maxNumBatchedTokens = v;
            return this;
        }

        public Builder numBlocks(int v) {
            numBlocks = v;
            return this;
        }

        public Builder blockSize(int v) {
            blockSize = v;
            return this;
        }

        public Builder watermark(double v) {
            watermark = v;
            return this;
        }

        public Builder enablePrefixCaching(boolean v) {
            enablePrefixCaching = v;
            return this;
        }

        public Builder maxModelLen(int v) {
            maxModelLen = v;
            return this;
        }

        public Builder maxWaiting(int v) {
            maxWaiting = v;
            return this;
        }

        public Builder profile(StepTimeProfile v) {
            profile = v;
            return this;
        }

        public Builder coefficients(Map<String, Double> v) {
            coefficients = v;
            return this;
        }

        public Builder speedup(double v) {
            speedup = v;
            return this;
        }

        public Builder jitter(double v) {
            jitter = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Builder outputLength(OutputLength v) {
            outputLength = v;
            return this;
        }

        public Builder tokensPerStep(int v) {
            tokensPerStep = v;
            return this;
        }

        public BatchingEngineConfig build() {
            return new BatchingEngineConfig(
                    maxNumSeqs,
                    maxNumBatchedTokens,
                    numBlocks,
                    blockSize,
                    watermark,
                    enablePrefixCaching,
                    maxModelLen,
                    maxWaiting,
                    profile,
                    coefficients,
                    speedup,
                    jitter,
                    seed,
                    outputLength,
                    tokensPerStep);
        }
    }
}
