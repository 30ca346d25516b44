package dev.llmload.sweep;

import dev.llmload.metrics.PercentileSlo;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where latency or the error rate starts to climb steeply in a sweep. The rule, scanning points in
 * the order of the load offered: the first point whose p99 TTFT or p99 E2E latency exceeds
 * {@code factor} times the lowest value of that metric at any earlier point, or whose error rate
 * exceeds the lowest earlier error rate by more than {@code errorRise}, is where the rise is seen;
 * the knee is the point just before it, the last load before the climb. Relative to the lowest
 * earlier value rather than to the first point, so one slow cold start does not hide a later rise.
 * Pure.
 */
public final class KneeDetector {

    /** Twice the best latency seen at a lower load. */
    public static final double DEFAULT_FACTOR = 2.0;
    /** Five percentage points more errors than the best lower load. */
    public static final double DEFAULT_ERROR_RISE = 0.05;

    /** One sweep point; null where the point has no value (nothing succeeded, not streamed). */
    public record Point(double throughput, Double p99TtftMs, Double p99E2eMs, Double errorRate) {}

    /**
     * @param index      the knee's position in the points given
     * @param throughput its achieved throughput
     * @param riseIndex  the point where the rise is seen ({@code index + 1})
     * @param reason     the metric that rose, with both values
     */
    public record Knee(int index, double throughput, int riseIndex, String reason) {}

    private KneeDetector() {}

    /** The knee of {@code points} ordered by offered load; empty when nothing rises that steeply. */
    public static Optional<Knee> find(List<Point> points, double factor, double errorRise) {
        Double bestTtft = null;
        Double bestE2e = null;
        Double bestErrors = null;
        for (int i = 0; i < points.size(); i++) {
            Point point = points.get(i);
            if (i > 0) {
                String reason = rise("p99 TTFT", point.p99TtftMs(), bestTtft, factor);
                if (reason == null) {
                    reason = rise("p99 E2E", point.p99E2eMs(), bestE2e, factor);
                }
                if (reason == null && point.errorRate() != null && bestErrors != null
                        && point.errorRate() - bestErrors > errorRise) {
                    reason = String.format(Locale.ROOT, "error rate %.1f%% is more than %.1f points above the lowest "
                            + "at a lower load (%.1f%%)", point.errorRate() * 100, errorRise * 100, bestErrors * 100);
                }
                if (reason != null) {
                    return Optional.of(new Knee(i - 1, points.get(i - 1).throughput(), i, reason));
                }
            }
            bestTtft = min(bestTtft, point.p99TtftMs());
            bestE2e = min(bestE2e, point.p99E2eMs());
            bestErrors = min(bestErrors, point.errorRate());
        }
        return Optional.empty();
    }

    private static String rise(String name, Double value, Double best, double factor) {
        if (value == null || best == null || !(value > factor * best)) {
            return null;
        }
        return String.format(Locale.ROOT, "%s %.1f ms is more than %s× the lowest at a lower load (%.1f ms)", name,
                value, PercentileSlo.format(factor), best);
    }

    private static Double min(Double best, Double value) {
        if (value == null || best == null) {
            return value == null ? best : value; // if/else, not ?:, which would unbox a null best
        }
        return Math.min(best, value);
    }
}
