package dev.llmload.load;

/**
 * Bounds on what one response may bring, so that no server can make the client hold or count
 * without end. A response past one is ended (its connection closed) and classed {@code protocol}
 * with the limit named. Defaults are far above what any real answer needs.
 *
 * <p>Raising a limit never lets one response take memory without bound: whatever the limits, the
 * client holds at most {@link #MAX_HELD_BYTES} of a response's bytes at once (a stream event still
 * being received, a body read whole to be decoded) and {@link #MAX_HELD_TOKEN_EVENTS} token events
 * (each kept with its time and text until the response ends). An endless stream under a raised
 * limit once held a gigabyte, and the event loop that copied it could not run the request's timer
 * on time; its token events then took minutes to count and write.
 *
 * @param maxEventBytes      bytes of one stream event still being received ({@code --max-event-bytes})
 * @param maxResponseBytes   bytes of one response body ({@code --max-response-bytes})
 * @param tokenFactor        a response may carry at most {@code tokenFactor × max_tokens + tokenSlack}
 *                           token events ({@code --max-tokens-factor})
 * @param tokenSlack         the fixed allowance on top, for servers that split tokens
 */
public record ResponseLimits(long maxEventBytes, long maxResponseBytes, int tokenFactor, int tokenSlack) {

    public static final long DEFAULT_MAX_EVENT_BYTES = 1L << 20;
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 64L << 20;
    public static final int DEFAULT_TOKEN_FACTOR = 4;
    public static final int DEFAULT_TOKEN_SLACK = 64;
    /** The most bytes of one response held at once, whatever {@code --max-event-bytes} and {@code --max-response-bytes}. */
    public static final long MAX_HELD_BYTES = 64L << 20;
    /** The most token events one response may carry, whatever {@code --max-tokens-factor}. */
    public static final int MAX_HELD_TOKEN_EVENTS = 1 << 18;

    public ResponseLimits {
        if (maxEventBytes <= 0 || maxResponseBytes <= 0 || tokenFactor <= 0 || tokenSlack < 0) {
            throw new IllegalArgumentException("response limits must be positive");
        }
    }

    public static ResponseLimits defaults() {
        return new ResponseLimits(
                DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TOKEN_FACTOR, DEFAULT_TOKEN_SLACK);
    }

    /** The most token events a response to a request for {@code maxTokens} may carry. */
    public int maxTokenEvents(int maxTokens) {
        return (int) Math.min(MAX_HELD_TOKEN_EVENTS, factorBound(maxTokens));
    }

    /** What ended a response with more than {@link #maxTokenEvents} token events, for its failure message. */
    String tokenEventsExceeded(int maxTokens) {
        return factorBound(maxTokens) > MAX_HELD_TOKEN_EVENTS
                ? "more than " + MAX_HELD_TOKEN_EVENTS + " token events, the most llmload holds of one response"
                        + " whatever --max-tokens-factor; ended"
                : "more than " + maxTokenEvents(maxTokens) + " token events for max_tokens " + maxTokens
                        + " (--max-tokens-factor); ended";
    }

    private long factorBound(int maxTokens) {
        return (long) tokenFactor * Math.max(0, maxTokens) + tokenSlack;
    }

    /** The most bytes of one stream event held while it is received. */
    long heldEventBytes() {
        return Math.min(maxEventBytes, MAX_HELD_BYTES);
    }

    /** The most bytes of a response read whole (not streamed), which is held until it ends. */
    long heldBodyBytes() {
        return Math.min(maxResponseBytes, MAX_HELD_BYTES);
    }

    /** What ended a stream event larger than {@link #heldEventBytes}, for its failure message. */
    String eventTooLarge() {
        return maxEventBytes > MAX_HELD_BYTES
                ? "stream event larger than " + MAX_HELD_BYTES + " bytes, the most llmload holds of one response"
                        + " whatever --max-event-bytes; ended"
                : "stream event larger than " + maxEventBytes + " bytes (--max-event-bytes); ended";
    }

    /** What ended a response larger than {@code --max-response-bytes}, or read whole and larger than {@link #heldBodyBytes}. */
    String responseTooLarge(boolean readWhole) {
        return readWhole && maxResponseBytes > MAX_HELD_BYTES
                ? "response read whole (not streamed) larger than " + MAX_HELD_BYTES + " bytes, the most llmload"
                        + " holds of one response whatever --max-response-bytes; ended"
                : "response larger than " + maxResponseBytes + " bytes (--max-response-bytes); ended";
    }
}
