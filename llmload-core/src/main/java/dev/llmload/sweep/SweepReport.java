package dev.llmload.sweep;

import dev.llmload.metrics.PercentileSlo;
import dev.llmload.metrics.RunResults;
import dev.llmload.report.RunReport;
import dev.llmload.config.Load;
import java.util.List;

/**
 * {@code sweep.json}: the points of a sweep in the order of the load offered, with their key
 * figures, and what the sweep concluded. Rewritten after every point, so an interrupted sweep
 * still lists what finished.
 *
 * @param mode        {@code fixed}, {@code auto} or {@code capacity}
 * @param axis        {@code rate} or {@code concurrency}; for {@code auto}, rate (its first two points are closed loop)
 * @param slo         the percentile limits each point was judged by, e.g. {@code p99_ttft:1000}; null for none
 * @param knee        where latency or errors begin to climb; null when they do not climb that steeply
 * @param capacity    the capacity search's answer; null outside a capacity search or before it ends
 * @param interrupted the sweep was stopped before its last point
 */
public record SweepReport(int schemaVersion, String mode, String axis, String slo, List<Point> points,
                          Knee knee, CapacitySearch.Result capacity, boolean interrupted) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * One finished point.
     *
     * @param index      its place in the order the points ran, from 1
     * @param role       {@code baseline} and {@code throughput} (auto), {@code point}, or {@code probe} and
     *                   {@code recheck} (capacity search)
     * @param directory  its run directory, relative to the sweep directory
     * @param value      the load value swept: requests per second or in flight
     * @param meetsSlo   null when the sweep has no SLO
     * @param violations the limits it missed, e.g. {@code p99_ttft 1234 > 1000}
     * @param resumed    taken from an earlier, interrupted sweep rather than run again
     */
    public record Point(int index, String role, String directory, double value, Load load,
                        Double requestThroughput, Double outputTokenThroughput, Double p99TtftMs, Double p99TpotMs,
                        Double p99E2eMs, Double errorRate, Boolean meetsSlo, List<String> violations, boolean resumed) {

        static Point of(int index, String role, String directory, double value, RunReport report, PercentileSlo slo,
                        boolean resumed) {
            RunResults r = report.results();
            List<String> violations = slo == null ? List.of()
                    : slo.violations(r).stream().map(PercentileSlo.Violation::toString).toList();
            return new Point(index, role, directory, value, report.config().load(), r.requestThroughput(),
                    r.outputTokenThroughput(), r.ttftMs().p99(), r.tpotMs().p99(), r.e2eLatencyMs().p99(),
                    r.errorRate(), slo == null ? null : violations.isEmpty(), violations, resumed);
        }
    }

    /** The knee as written: the point's directory and throughput, and why. */
    public record Knee(String directory, double requestThroughput, String risesAt, String reason) {}
}
