package dev.llmload.sim.engine.batching;

/**
 * What one engine step computes, as far as its duration depends on it.
 *
 * @param prefillTokens   prompt tokens computed in this step (new, not found in the prefix cache;
 *                        recomputation after a preemption counts too)
 * @param decodeSequences sequences that generate their next token(s) in this step
 * @param decodeTokens    tokens those sequences compute (more than one each with speculative decoding)
 * @param contextTokens   KV tokens the step's attention reads: the context of every scheduled sequence
 * @param batchSize       sequences scheduled in this step, prefilling or decoding
 * @param kvCacheUsage    share of KV blocks in use during the step, 0 to 1
 */
public record StepShape(
        int prefillTokens,
        int decodeSequences,
        int decodeTokens,
        long contextTokens,
        int batchSize,
        double kvCacheUsage) {

    /** All tokens the step computes: what the per-step budget {@code maxNumBatchedTokens} bounds. */
    public int scheduledTokens() {
        return prefillTokens + decodeTokens;
    }
}
