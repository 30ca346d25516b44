package dev.llmload.analysis;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.SessionTurn;
import dev.llmload.record.TimeoutKind;
import dev.llmload.record.TokenSource;
import java.util.Arrays;

/** Hand-made request records for tests; times are given in milliseconds from the run's start. */
public final class Records {

    private Records() {}

    public static long nanos(double ms) {
        return Math.round(ms * 1_000_000);
    }

    /** A streamed success with one token per event at {@code tokenMs}; it ends at the last token. */
    public static RequestRecord ok(long index, double intendedMs, double sentMs, double... tokenMs) {
        int[] counts = new int[tokenMs.length];
        Arrays.fill(counts, 1);
        return streamed(index, false, intendedMs, sentMs, tokenMs, counts, Outcome.SUCCESS, 200, 100);
    }

    public static RequestRecord streamed(
            long index,
            boolean warmup,
            double intendedMs,
            double sentMs,
            double[] tokenMs,
            int[] counts,
            Outcome outcome,
            int status,
            int inputTokens) {
        long[] times = Arrays.stream(tokenMs).mapToLong(Records::nanos).toArray();
        long first = times.length == 0 ? RequestTimings.NEVER : times[0];
        long end = times.length == 0 ? nanos(sentMs) : times[times.length - 1];
        return new RequestRecord(
                index,
                "r" + index,
                warmup,
                new RequestTimings(nanos(intendedMs), nanos(sentMs), first, first, first, end, times),
                counts,
                status,
                outcome,
                inputTokens,
                true,
                Arrays.stream(counts).sum(),
                TokenSource.SERVER,
                outcome instanceof Outcome.Success ? "length" : null,
                true,
                null,
                null,
                null);
    }

    /** A failure without any token that ends at {@code endMs}. */
    public static RequestRecord failed(
            long index, double intendedMs, double sentMs, double endMs, Outcome.Failure failure, int status) {
        return new RequestRecord(
                index,
                "r" + index,
                false,
                new RequestTimings(
                        nanos(intendedMs),
                        nanos(sentMs),
                        RequestTimings.NEVER,
                        RequestTimings.NEVER,
                        RequestTimings.NEVER,
                        nanos(endMs),
                        new long[0]),
                new int[0],
                status,
                failure,
                100,
                false,
                0,
                TokenSource.SERVER,
                null,
                true,
                null,
                null,
                null);
    }

    public static RequestRecord failed(long index, double atMs, FailureClass failureClass, int status, String message) {
        return failed(index, atMs, atMs, atMs + 5, Outcome.Failure.of(failureClass, message), status);
    }

    public static RequestRecord timeout(long index, double atMs, TimeoutKind kind) {
        return failed(index, atMs, atMs, atMs + 1000, Outcome.Failure.timeout(kind, kind.key() + " timeout"), 0);
    }

    /** A non-streamed success: one response at {@code endMs} with {@code outputTokens} tokens. */
    public static RequestRecord unstreamed(long index, double sentMs, double endMs, int outputTokens) {
        return new RequestRecord(
                index,
                "r" + index,
                false,
                new RequestTimings(
                        nanos(sentMs),
                        nanos(sentMs),
                        nanos(endMs),
                        RequestTimings.NEVER,
                        RequestTimings.NEVER,
                        nanos(endMs),
                        new long[0]),
                new int[0],
                200,
                Outcome.SUCCESS,
                100,
                true,
                outputTokens,
                TokenSource.SERVER,
                "stop",
                false,
                null,
                null,
                null);
    }

    /** The same record as answered with a {@code Retry-After} header. */
    public static RequestRecord withRetryAfter(RequestRecord r, String retryAfter) {
        return new RequestRecord(
                r.index(),
                r.requestId(),
                r.warmup(),
                r.timings(),
                r.tokenEventCounts(),
                r.httpStatus(),
                r.outcome(),
                r.inputTokens(),
                r.inputTokensFromServer(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.finishReason(),
                r.streamed(),
                retryAfter,
                r.session(),
                r.serverTimings());
    }

    /** The same record with the server's own timings, as a native API reports them. */
    public static RequestRecord withServerTimings(RequestRecord r, dev.llmload.record.ServerTimings server) {
        return new RequestRecord(
                r.index(),
                r.requestId(),
                r.warmup(),
                r.timings(),
                r.tokenEventCounts(),
                r.httpStatus(),
                r.outcome(),
                r.inputTokens(),
                r.inputTokensFromServer(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.finishReason(),
                r.streamed(),
                r.retryAfter(),
                r.session(),
                server);
    }

    /** {@code r} as turn {@code turn} of session {@code session}. */
    public static RequestRecord inSession(RequestRecord r, long session, int turn) {
        return inSession(r, new SessionTurn(session, turn));
    }

    /** {@code r} as turn {@code turn} of subagent session {@code session}, forked from {@code parent}. */
    public static RequestRecord inSubagent(RequestRecord r, long session, int turn, long parent) {
        return inSession(r, new SessionTurn(session, turn, parent));
    }

    private static RequestRecord inSession(RequestRecord r, SessionTurn session) {
        return new RequestRecord(
                r.index(),
                r.requestId(),
                r.warmup(),
                r.timings(),
                r.tokenEventCounts(),
                r.httpStatus(),
                r.outcome(),
                r.inputTokens(),
                r.inputTokensFromServer(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.finishReason(),
                r.streamed(),
                r.retryAfter(),
                session,
                r.serverTimings());
    }
}
