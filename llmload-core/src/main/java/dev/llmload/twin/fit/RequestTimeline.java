package dev.llmload.twin.fit;

/**
 * One streamed request as the client saw it, on its run's clock (nanoseconds from any origin
 * shared by the run's requests): what the fit reads of a journal line.
 *
 * @param sentNanos       when the request went out
 * @param inputTokens     its prompt length
 * @param tokenNanos      when each token-bearing event arrived, ascending; at least one
 * @param tokensThrough   tokens received up to and including each event (ascending, at least 1
 *                        more at each event): a running sum, so that "tokens by t" is a binary search
 */
public record RequestTimeline(long sentNanos, int inputTokens, long[] tokenNanos, int[] tokensThrough) {

    public RequestTimeline {
        if (tokenNanos.length == 0 || tokenNanos.length != tokensThrough.length) {
            throw new IllegalArgumentException("a timeline needs at least one token event and a count for each");
        }
    }

    /** A timeline from each event's own token count. */
    public static RequestTimeline of(long sentNanos, int inputTokens, long[] tokenNanos, int[] tokenCounts) {
        int[] through = new int[tokenCounts.length];
        int sum = 0;
        for (int i = 0; i < tokenCounts.length; i++) {
            sum += tokenCounts[i];
            through[i] = sum;
        }
        return new RequestTimeline(sentNanos, inputTokens, tokenNanos, through);
    }

    /** Tokens the event {@code i} carried. */
    int tokensAt(int i) {
        return i == 0 ? tokensThrough[0] : tokensThrough[i] - tokensThrough[i - 1];
    }

    public long firstTokenNanos() {
        return tokenNanos[0];
    }

    public long lastTokenNanos() {
        return tokenNanos[tokenNanos.length - 1];
    }

    /** Tokens received at or before {@code nanos}. */
    int tokensBy(long nanos) {
        int lo = 0;
        int hi = tokenNanos.length; // first event after nanos lies in [lo, hi]
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (tokenNanos[mid] <= nanos) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == 0 ? 0 : tokensThrough[lo - 1];
    }
}
