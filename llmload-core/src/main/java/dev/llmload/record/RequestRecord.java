package dev.llmload.record;

/**
 * Everything measured about one request: the raw timestamps and counts from which every metric
 * is derived (see {@code dev.llmload.metrics.RequestMetrics}), and what {@code requests.jsonl}
 * holds. Times are offsets in nanoseconds from the run's start; -1 marks an instant that never
 * happened (no first byte, no token).
 *
 * @param tokenEventNanos  time of every token-bearing stream event, in order
 * @param tokenEventCounts tokens carried by each of those events (at least 1)
 * @param inputTokens      {@code usage.prompt_tokens}, else the workload's own count
 * @param outputTokens     from {@link #outputTokenSource}; 0 for a request that produced nothing
 * @param retryAfter       the response's {@code Retry-After} header, when it had one (rate limiting)
 * @param session          the session and turn of a multi-turn request; null outside sessions
 */
public record RequestRecord(
        long index,
        String requestId,
        boolean warmup,
        long intendedSendNanos,
        long sentNanos,
        long firstByteNanos,
        long firstTokenNanos,
        long firstContentNanos,
        long endNanos,
        long[] tokenEventNanos,
        int[] tokenEventCounts,
        int httpStatus,
        Outcome outcome,
        int inputTokens,
        boolean inputTokensFromServer,
        int outputTokens,
        TokenSource outputTokenSource,
        String finishReason,
        boolean streamed,
        String retryAfter,
        SessionTurn session) {

    public static final long NEVER = -1;

    /** A request outside any session. */
    public RequestRecord(long index, String requestId, boolean warmup, long intendedSendNanos, long sentNanos,
                         long firstByteNanos, long firstTokenNanos, long firstContentNanos, long endNanos,
                         long[] tokenEventNanos, int[] tokenEventCounts, int httpStatus, Outcome outcome,
                         int inputTokens, boolean inputTokensFromServer, int outputTokens,
                         TokenSource outputTokenSource, String finishReason, boolean streamed, String retryAfter) {
        this(index, requestId, warmup, intendedSendNanos, sentNanos, firstByteNanos, firstTokenNanos, firstContentNanos,
                endNanos, tokenEventNanos, tokenEventCounts, httpStatus, outcome, inputTokens, inputTokensFromServer,
                outputTokens, outputTokenSource, finishReason, streamed, retryAfter, null);
    }

    public boolean succeeded() {
        return outcome instanceof Outcome.Success;
    }

    public boolean timedOut() {
        return outcome instanceof Outcome.Failure failure && failure.failureClass() == FailureClass.TIMEOUT;
    }

    public long lastTokenNanos() {
        return tokenEventNanos.length == 0 ? NEVER : tokenEventNanos[tokenEventNanos.length - 1];
    }
}
