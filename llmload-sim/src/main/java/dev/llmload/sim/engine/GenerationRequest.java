package dev.llmload.sim.engine;

/**
 * One generation request as the HTTP layer hands it to an {@link Engine}.
 *
 * @param requestId      the id echoed to the client in {@code x-request-id}
 * @param promptTokenIds the prompt's token ids; their count is the prompt length and full blocks
 *                       of them are hashed for prefix caching
 * @param maxTokens      the request's {@code max_tokens} (or {@code max_completion_tokens})
 * @param minTokens      the request's {@code min_tokens}, 0 when absent
 * @param ignoreEos      when true exactly {@code maxTokens} are generated
 * @param arrivalNanos   {@link System#nanoTime()} (or the engine clock's time) when the request arrived
 */
public record GenerationRequest(
        String requestId, int[] promptTokenIds, int maxTokens, int minTokens, boolean ignoreEos, long arrivalNanos) {

    public int promptTokens() {
        return promptTokenIds.length;
    }
}
