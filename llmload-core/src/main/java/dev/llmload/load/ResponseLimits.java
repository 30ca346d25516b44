package dev.llmload.load;

/**
 * Bounds on what one response may bring, so that no server can make the client hold or count
 * without end. A response past one is ended (its connection closed) and classed {@code protocol}
 * with the limit named. Defaults are far above what any real answer needs.
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

    public ResponseLimits {
        if (maxEventBytes <= 0 || maxResponseBytes <= 0 || tokenFactor <= 0 || tokenSlack < 0) {
            throw new IllegalArgumentException("response limits must be positive");
        }
    }

    public static ResponseLimits defaults() {
        return new ResponseLimits(DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TOKEN_FACTOR,
                DEFAULT_TOKEN_SLACK);
    }

    /**
     * Jackson's filter that leaves default limits out of report.json, so a run that did not change
     * them records its configuration as earlier versions did.
     */
    static final class Defaults {
        @Override
        public boolean equals(Object value) {
            return defaults().equals(value);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** The most token events a response to a request for {@code maxTokens} may carry. */
    public int maxTokenEvents(int maxTokens) {
        long bound = (long) tokenFactor * Math.max(0, maxTokens) + tokenSlack;
        return (int) Math.min(Integer.MAX_VALUE, bound);
    }
}
