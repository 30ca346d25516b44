package dev.llmload.load;

import dev.llmload.protocol.Usage;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestTimings;
import java.util.List;

/**
 * What one request left behind when it ended, before token counting: its moments (absolute
 * {@link System#nanoTime()}), the text of each token-bearing event and the server's usage. The
 * recorder turns it into a {@code RequestRecord} off the I/O threads.
 *
 * @param endMarkerSeen the stream carried its dialect's end marker ({@code [DONE]}); a stream
 *                      that ended without one was cut short, whatever its outcome says so far
 */
record FinishedRequest(
        PreparedRequest request,
        String requestId,
        boolean warmup,
        RequestTimings timings,
        List<String> tokenEventTexts,
        int httpStatus,
        Outcome outcome,
        Usage usage,
        String finishReason,
        boolean streamed,
        String retryAfter,
        boolean endMarkerSeen) {

    /**
     * A request that was never sent: it waited for a slot (a concurrency gate, a session slot)
     * when the run ended at {@code endedNanos}, and is recorded as cancelled for {@code why}.
     */
    public static FinishedRequest neverSent(PreparedRequest request, String requestId, boolean warmup,
                                            long intendedSendNanos, long endedNanos, String why) {
        return new FinishedRequest(request, requestId, warmup, RequestTimings.neverSent(intendedSendNanos, endedNanos),
                List.of(), 0, Outcome.Failure.of(FailureClass.CANCELLED, "never sent: " + why), null, null, false, null,
                false);
    }
}
