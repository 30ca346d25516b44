package dev.llmload.load;

import dev.llmload.protocol.Usage;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.ServerTimings;

/**
 * What one request left behind when it ended, before token counting: its moments (absolute
 * {@link System#nanoTime()}), the text of each token-bearing event and the server's usage. The
 * recorder turns it into a {@code RequestRecord} off the I/O threads.
 *
 * @param serverTokenCounts the server's token count of each token event (-1 where it gave none),
 *                      or null when the dialect gives no per-event counts
 * @param endMarkerSeen the stream carried its dialect's end marker ({@code [DONE]}); a stream
 *                      that ended without one failed as {@code protocol}
 * @param serverTimings the server's own timings of the request; null when it reported none
 */
record FinishedRequest(
        RequestFacts request,
        String requestId,
        boolean warmup,
        RequestTimings timings,
        TokenTexts tokenEventTexts,
        int[] serverTokenCounts,
        int httpStatus,
        Outcome outcome,
        Usage usage,
        String finishReason,
        boolean streamed,
        String retryAfter,
        boolean endMarkerSeen,
        ServerTimings serverTimings) {

    /**
     * A request that was never sent: it waited for a slot (a concurrency gate, a session slot)
     * when the run ended at {@code endedNanos}, and is recorded as cancelled for {@code why}.
     */
    public static FinishedRequest neverSent(
            RequestFacts request,
            String requestId,
            boolean warmup,
            long intendedSendNanos,
            long endedNanos,
            String why) {
        return new FinishedRequest(
                request,
                requestId,
                warmup,
                RequestTimings.neverSent(intendedSendNanos, endedNanos),
                TokenTexts.none(),
                null,
                0,
                Outcome.Failure.of(FailureClass.CANCELLED, "never sent: " + why),
                null,
                null,
                false,
                null,
                false,
                null);
    }
}
