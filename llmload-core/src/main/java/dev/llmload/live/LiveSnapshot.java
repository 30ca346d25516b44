package dev.llmload.live;

import dev.llmload.record.FailureClass;
import java.util.Map;

/**
 * What a run had done at one tick of {@link LiveMetrics}: immutable, published to any thread.
 * Warm-up requests are counted apart ({@link #warmups}) and nowhere else, as in report.json; the
 * latencies and output tokens are those of the measured requests that succeeded.
 *
 * @param elapsedNanos     time since the run's clock started
 * @param ended            whether this is the run's last snapshot (every request is journaled)
 * @param succeeded        measured requests that succeeded
 * @param failed           measured requests that failed, by class (every class, zeros included)
 * @param warmups          warm-up requests finished, whatever their outcome
 * @param inFlight         requests sent and not yet finished (warm-up ones included)
 * @param scheduled        sends the open loop's schedule had due by now; -1 for a closed loop
 * @param outputTokens     output tokens of the measured requests that succeeded
 * @param ttft             time to first token, cumulative
 * @param itl              inter-token latency, one observation per gap between token-bearing events, cumulative
 * @param e2e              end-to-end latency, cumulative
 * @param window           the last {@link LiveMetrics#WINDOW_SECONDS} seconds
 * @param loopLagMaxNanos  the most any event loop ran late in the last tick's second
 * @param server           the server's newest scraped gauges; {@link Server#NONE} without telemetry
 */
public record LiveSnapshot(
        long elapsedNanos,
        boolean ended,
        long succeeded,
        Map<FailureClass, Long> failed,
        long warmups,
        int inFlight,
        long scheduled,
        long outputTokens,
        Histogram ttft,
        Histogram itl,
        Histogram e2e,
        Window window,
        long loopLagMaxNanos,
        Server server) {

    public LiveSnapshot {
        failed = Map.copyOf(failed);
    }

    /** Measured requests that failed, all classes together. */
    public long failedTotal() {
        return failed.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Requests finished, warm-up included. */
    public long finishedTotal() {
        return succeeded + failedTotal() + warmups;
    }

    /** Requests sent: finished (warm-up included) and in flight. */
    public long sent() {
        return finishedTotal() + inFlight;
    }

    /**
     * A cumulative histogram in seconds with fixed upper bounds, as Prometheus's histograms are.
     *
     * @param upperBoundsSeconds the buckets' upper bounds, ascending; {@code +Inf} is implied
     * @param cumulativeCounts   per bound, the observations at or below it; one more for {@code +Inf}
     * @param sumSeconds         the sum of the observations
     */
    public record Histogram(double[] upperBoundsSeconds, long[] cumulativeCounts, double sumSeconds) {

        public Histogram {
            upperBoundsSeconds = upperBoundsSeconds.clone();
            cumulativeCounts = cumulativeCounts.clone();
        }

        public long count() {
            return cumulativeCounts[cumulativeCounts.length - 1];
        }

        @Override
        public double[] upperBoundsSeconds() {
            return upperBoundsSeconds.clone();
        }

        @Override
        public long[] cumulativeCounts() {
            return cumulativeCounts.clone();
        }
    }

    /**
     * p50 and p99 of the requests that finished in the window, ms; null when none did.
     *
     * @param count how many observations they are of
     */
    public record Quantiles(double p50Ms, double p99Ms, long count) {}

    /**
     * The last seconds of the run: rates per second over {@code seconds} (fewer at the start, the
     * run's elapsed time then) and the latencies of what finished in them.
     *
     * @param seconds             the window's length
     * @param offeredPerSecond    sends due by the open loop's schedule; NaN for a closed loop
     * @param sentPerSecond       sends made
     * @param finishedPerSecond   requests finished, warm-up and failures included
     * @param outputTokensPerSecond output tokens of the measured requests that succeeded
     * @param loopLagMaxNanos     the most any event loop ran late in the window
     */
    public record Window(
            int seconds,
            double offeredPerSecond,
            double sentPerSecond,
            double finishedPerSecond,
            double outputTokensPerSecond,
            Quantiles ttft,
            Quantiles itl,
            Quantiles e2e,
            long loopLagMaxNanos) {}

    /**
     * The server's gauges from its newest scrape (null: not exposed, or no telemetry).
     *
     * @param kvCacheUsage    KV-cache use, 0 to 1
     * @param requestsWaiting requests in the server's waiting queue
     * @param requestsRunning requests in the server's running batch
     * @param ageNanos        how old the scrape was at the tick; -1 without one
     */
    public record Server(Double kvCacheUsage, Double requestsWaiting, Double requestsRunning, long ageNanos) {
        public static final Server NONE = new Server(null, null, null, -1);
    }
}
