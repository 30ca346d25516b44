package dev.llmload.record;

/**
 * Everything measured about one request: the raw moments and counts from which every metric is
 * derived (see {@code dev.llmload.metrics.RequestMetrics}), and what {@code requests.jsonl} holds.
 * Its {@link #timings} are offsets in nanoseconds from the run's start.
 *
 * @param tokenEventCounts tokens carried by each of the {@code timings.tokenEventNanos()} events (at least 1)
 * @param inputTokens      {@code usage.prompt_tokens}, else the workload's own count
 * @param outputTokens     from {@link #outputTokenSource}; 0 for a request that produced nothing
 * @param retryAfter       the response's {@code Retry-After} header, when it had one (rate limiting)
 * @param session          the session and turn of a multi-turn request; null outside sessions
 * @param serverTimings    the server's own timings of the request (native APIs that report them); null otherwise
 */
public record RequestRecord(
        long index,
        String requestId,
        boolean warmup,
        RequestTimings timings,
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
        SessionTurn session,
        ServerTimings serverTimings) {

    public boolean succeeded() {
        return outcome instanceof Outcome.Success;
    }

    public boolean timedOut() {
        return outcome instanceof Outcome.Failure failure && failure.failureClass() == FailureClass.TIMEOUT;
    }
}
