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
 * @param text             the words and characters of its prompt and answer; {@link TextCounts#NONE} where not
 *                         counted (a journal of an older llmload)
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
        ServerTimings serverTimings,
        TextCounts text) {

    public RequestRecord {
        if (text == null) {
            text = TextCounts.NONE;
        }
    }

    /** A record whose words and characters were not counted ({@link TextCounts#NONE}). */
    public RequestRecord(
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
        this(
                index,
                requestId,
                warmup,
                timings,
                tokenEventCounts,
                httpStatus,
                outcome,
                inputTokens,
                inputTokensFromServer,
                outputTokens,
                outputTokenSource,
                finishReason,
                streamed,
                retryAfter,
                session,
                serverTimings,
                TextCounts.NONE);
    }

    public boolean succeeded() {
        return outcome instanceof Outcome.Success;
    }

    public boolean timedOut() {
        return outcome instanceof Outcome.Failure failure && failure.failureClass() == FailureClass.TIMEOUT;
    }

    /**
     * This record without its token events' gaps, for holding a run's requests in little memory:
     * the events collapse into their last one, carrying all their tokens, so every per-request
     * metric (TTFT, E2E, TPOT, queue time) stays the same, while inter-token gaps and tokens per
     * second must be taken from the full record. The record itself when it has at most one event.
     */
    public RequestRecord withoutTokenGaps() {
        long[] times = timings.tokenEventNanos();
        if (times.length <= 1) {
            return this;
        }
        int tokens = 0;
        for (int count : tokenEventCounts) {
            tokens += count;
        }
        RequestTimings last = new RequestTimings(
                timings.intendedSendNanos(),
                timings.sentNanos(),
                timings.firstByteNanos(),
                timings.firstTokenNanos(),
                timings.firstContentNanos(),
                timings.endNanos(),
                new long[] {times[times.length - 1]});
        return new RequestRecord(
                index,
                requestId,
                warmup,
                last,
                new int[] {tokens},
                httpStatus,
                outcome,
                inputTokens,
                inputTokensFromServer,
                outputTokens,
                outputTokenSource,
                finishReason,
                streamed,
                retryAfter,
                session,
                serverTimings,
                text);
    }
}
