package dev.llmload.record;

/**
 * When the moments of one request happened, all on one clock in nanoseconds: absolute
 * {@link System#nanoTime()} readings while the request is in flight, offsets from the run's start
 * once it is recorded ({@link #relativeTo}). {@link #NEVER} marks a moment that did not happen (no
 * response, no generated text). Every latency of DESIGN.md §3 is a difference of two of these.
 *
 * @param intendedSendNanos when the schedule (or the closed loop) meant the request to go out
 * @param sentNanos         when its event loop took it up: TTFT and E2E count from here
 * @param firstByteNanos    the response head
 * @param firstTokenNanos   the first stream event carrying generated text of any channel (TTFT)
 * @param firstContentNanos the first stream event carrying answer text (TTFC)
 * @param endNanos          the end of the response, or the moment the request failed
 * @param tokenEventNanos   every token-bearing stream event, in order; the read that completed it
 */
public record RequestTimings(
        long intendedSendNanos,
        long sentNanos,
        long firstByteNanos,
        long firstTokenNanos,
        long firstContentNanos,
        long endNanos,
        long[] tokenEventNanos) {

    public static final long NEVER = -1;

    private static final long[] NO_EVENTS = new long[0];

    /**
     * A request that never left the client (it waited at a gate when the run ended): it "went out"
     * and ended at {@code endedNanos}, with no response.
     */
    public static RequestTimings neverSent(long intendedSendNanos, long endedNanos) {
        return new RequestTimings(intendedSendNanos, endedNanos, NEVER, NEVER, NEVER, endedNanos, NO_EVENTS);
    }

    /** The same moments as offsets from {@code originNanos}; moments that never happened stay {@link #NEVER}. */
    public RequestTimings relativeTo(long originNanos) {
        long[] events = new long[tokenEventNanos.length];
        for (int i = 0; i < events.length; i++) {
            events[i] = tokenEventNanos[i] - originNanos;
        }
        return new RequestTimings(
                intendedSendNanos - originNanos,
                sentNanos - originNanos,
                offset(firstByteNanos, originNanos),
                offset(firstTokenNanos, originNanos),
                offset(firstContentNanos, originNanos),
                endNanos - originNanos,
                events);
    }

    private static long offset(long nanos, long originNanos) {
        return nanos < 0 ? NEVER : nanos - originNanos;
    }

    /** The last token-bearing event (where a streamed E2E latency ends), or {@link #NEVER}. */
    public long lastTokenNanos() {
        return tokenEventNanos.length == 0 ? NEVER : tokenEventNanos[tokenEventNanos.length - 1];
    }
}
