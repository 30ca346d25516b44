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
 * @param knee        where throughput stops growing while latency climbs (or errors rise); null when the curve does not bend that sharply
 * @param capacity    the capacity search's answer; null outside a capacity search or before it ends
 * @param interrupted the sweep was stopped before its last point
 */
public record SweepReport(int schemaVersion, String mode, String axis, String slo, List<Point> points,
                          Knee knee, CapacitySearch.Result capacity, boolean interrupted) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * One finished point.
     *
     * @param index         its place in the order the points ran, from 1
     * @param role          {@code baseline} and {@code throughput} (auto), {@code point}, or {@code probe},
     *                      {@code resized} and {@code recheck} (capacity search)
     * @param directory     its run directory, relative to the sweep directory
     * @param value         the load value swept: requests per second or in flight
     * @param requests      measured requests of its run
     * @param saturated     the run's {@code saturation.saturated}: null for a closed loop
     * @param tooShort      an open loop whose arrival window was too short to tell saturation
     * @param meetsSlo      null when the sweep has no SLO; false for a saturated point whatever its percentiles
     * @param violations    saturation, then the limits it missed, e.g. {@code p99_ttft 1234 > 1000}
     * @param lowConfidence the SLO's percentile limits whose value here rests on too few samples
     * @param resumed       taken from an earlier, interrupted sweep rather than run again
     */
    public record Point(int index, String role, String directory, double value, Load load, long requests,
                        Double requestThroughput, Double outputTokenThroughput, Double p99TtftMs, Double p99TpotMs,
                        Double p99E2eMs, Double errorRate, Boolean saturated, boolean tooShort, Boolean meetsSlo,
                        List<String> violations, List<String> lowConfidence, boolean resumed) {

        static Point of(int index, String role, String directory, double value, RunReport report, PercentileSlo slo,
                        boolean resumed) {
            RunResults r = report.results();
            PointVerdict verdict = PointVerdict.of(report, slo);
            return new Point(index, role, directory, value, report.config().load(), r.requests().attempted(),
                    r.requestThroughput(), r.outputTokenThroughput(), r.ttftMs().p99(), r.tpotMs().p99(),
                    r.e2eLatencyMs().p99(), r.errorRate(),
                    report.saturation() == null ? null : report.saturation().saturated(), verdict.tooShort(),
                    slo == null ? null : verdict.passed(), verdict.violations(), verdict.lowConfidence(), resumed);
        }
    }

    /** The knee as written: the point's directory and throughput, and why. */
    public record Knee(String directory, double requestThroughput, String risesAt, String reason) {}
}
