package dev.llmload.sweep;

import dev.llmload.metrics.PercentileSlo;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a sweep's throughput-latency curve bends: the load beyond which more load buys no more
 * throughput, only latency. The rule, scanning points in the order of the load offered: a point
 * shows the bend when its achieved throughput is less than {@link #MIN_GROWTH} above the highest
 * throughput of any earlier point (throughput has levelled off) <em>and</em> its p99 TTFT or p99 E2E
 * latency exceeds {@code factor} times that of the plateau's first point, the earliest point whose
 * throughput came within {@link #MIN_GROWTH} of that highest; or when its error rate exceeds the
 * lowest earlier error rate by more than {@code errorRise}. The knee is the plateau's first point:
 * the least load that reached the throughput the rest only pay for in latency. Latency rising while throughput still grows (a closed loop
 * filling a batch) is no knee: the load bought throughput; throughput levelling off while latency
 * stays (a plateau of a lightly loaded server) is none either. Pure.
 */
public final class KneeDetector {

    /** Twice the latency of the best earlier point. */
    public static final double DEFAULT_FACTOR = 2.0;
    /** Five percentage points more errors than the best lower load. */
    public static final double DEFAULT_ERROR_RISE = 0.05;
    /** Throughput within 10% of the best earlier point's has stopped growing. */
    static final double MIN_GROWTH = 0.10;

    /** One sweep point; null where the point has no value (nothing succeeded, not streamed). */
    public record Point(double throughput, Double p99TtftMs, Double p99E2eMs, Double errorRate) {}

    /**
     * @param index      the knee's position in the points given
     * @param throughput its achieved throughput
     * @param riseIndex  the point where the bend is seen
     * @param reason     what stopped and what rose, with the values
     */
    public record Knee(int index, double throughput, int riseIndex, String reason) {}

    private KneeDetector() {}

    /** The knee of {@code points} ordered by offered load; empty when the curve does not bend that sharply. */
    public static Optional<Knee> find(List<Point> points, double factor, double errorRise) {
        double top = Double.NEGATIVE_INFINITY;
        Double bestErrors = null;
        for (int i = 0; i < points.size(); i++) {
            Point point = points.get(i);
            int plateau = -1;
            if (i > 0) {
                for (int j = 0; j < i && plateau < 0; j++) {
                    if ((1 + MIN_GROWTH) * points.get(j).throughput() >= top) {
                        plateau = j;
                    }
                }
                Point start = points.get(plateau);
                String reason = null;
                if (point.throughput() < (1 + MIN_GROWTH) * top) {
                    String latency = rise("p99 TTFT", point.p99TtftMs(), start.p99TtftMs(), factor);
                    if (latency == null) {
                        latency = rise("p99 E2E", point.p99E2eMs(), start.p99E2eMs(), factor);
                    }
                    if (latency != null) {
                        reason = String.format(
                                Locale.ROOT,
                                "throughput %.2f req/s is within %.0f%% of the best before "
                                        + "(%.2f req/s) while %s at %.2f req/s",
                                point.throughput(),
                                MIN_GROWTH * 100,
                                top,
                                latency,
                                start.throughput());
                    }
                }
                if (reason == null
                        && point.errorRate() != null
                        && bestErrors != null
                        && point.errorRate() - bestErrors > errorRise) {
                    reason = String.format(
                            Locale.ROOT,
                            "error rate %.1f%% is more than %.1f points above the lowest " + "at a lower load (%.1f%%)",
                            point.errorRate() * 100,
                            errorRise * 100,
                            bestErrors * 100);
                }
                if (reason != null) {
                    return Optional.of(new Knee(plateau, start.throughput(), i, reason));
                }
            }
            top = Math.max(top, point.throughput());
            bestErrors = min(bestErrors, point.errorRate());
        }
        return Optional.empty();
    }

    private static String rise(String name, Double value, Double best, double factor) {
        if (value == null || best == null || !(value > factor * best)) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "%s %.1f ms is more than %s× its %.1f ms there",
                name,
                value,
                PercentileSlo.format(factor),
                best);
    }

    private static Double min(Double best, Double value) {
        if (value == null || best == null) {
            return value == null ? best : value; // if/else, not ?:, which would unbox a null best
        }
        return Math.min(best, value);
    }
}
