package dev.llmload.sweep;

import dev.llmload.compare.Repeats;
import dev.llmload.config.Load;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.metrics.RunResults;
import dev.llmload.report.RunReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * {@code sweep.json}: the points of a sweep in the order of the load offered, with their key
 * figures, and what the sweep concluded. Rewritten after every point, so an interrupted sweep
 * still lists what finished.
 *
 * @param mode        {@code fixed}, {@code auto} or {@code capacity}
 * @param axis        {@code rate} or {@code concurrency}; for {@code auto}, rate (its first two points are closed loop)
 * @param slo         the percentile limits each point was judged by, e.g. {@code p99_ttft:1000}; null for none
 * @param repeats     runs per point ({@code --repeat}); 1 without
 * @param knee        where throughput stops growing while latency climbs (or errors rise); null when the curve does not bend that sharply
 * @param capacity    the capacity search's answer; null outside a capacity search or before it ends
 * @param interrupted the sweep was stopped before its last point
 */
public record SweepReport(
        int schemaVersion,
        String mode,
        String axis,
        String slo,
        int repeats,
        List<Point> points,
        Knee knee,
        CapacitySearch.Result capacity,
        boolean interrupted) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * One finished point.
     *
     * @param index         its place in the order the points ran, from 1
     * @param role          {@code baseline} and {@code throughput} (auto), {@code point}, or {@code probe},
     *                      {@code resized} and {@code recheck} (capacity search)
     * @param directory     its run directory, relative to the sweep directory; with repeats, the directory
     *                      of its runs ({@code repeat-1} ..) and their {@code repeats.json}
     * @param value         the load value swept: requests per second or in flight
     * @param requests      measured requests of its run (of each run, with repeats)
     * @param saturated     the run's {@code saturation.saturated} (true when any repeat's was): null for a closed loop
     * @param tooShort      an open loop whose arrival window was too short to tell saturation (in any repeat)
     * @param meetsSlo      null when the sweep has no SLO; false for a saturated point whatever its percentiles;
     *                      with repeats, judged on each limit's mean across them
     * @param confirmed     with repeats and an SLO: it met the SLO and each limit's interval across the repeats
     *                      lies within the limit; null for single runs or without an SLO
     * @param unconfirmed   each limit whose mean met it but whose interval reaches beyond it
     * @param violations    saturation, then the limits it missed, e.g. {@code p99_ttft 1234 > 1000}
     * @param lowConfidence the SLO's percentile limits whose value here rests on too few samples
     * @param resumed       taken from an earlier, interrupted sweep rather than run again
     * @param repeats       its runs; the figures above are their means
     * @param acrossRepeats with repeats, request throughput and each SLO limit across them (mean and
     *                      intervals, as in {@code repeats.json}); empty for a single run
     */
    public record Point(
            int index,
            String role,
            String directory,
            double value,
            Load load,
            long requests,
            Double requestThroughput,
            Double outputTokenThroughput,
            Double p99TtftMs,
            Double p99TpotMs,
            Double p99E2eMs,
            Double errorRate,
            Boolean saturated,
            boolean tooShort,
            Boolean meetsSlo,
            Boolean confirmed,
            List<String> unconfirmed,
            List<String> violations,
            List<String> lowConfidence,
            boolean resumed,
            int repeats,
            List<Repeats.Metric> acrossRepeats) {

        static Point of(
                int index,
                String role,
                String directory,
                double value,
                List<RunReport> reports,
                PercentileSlo slo,
                boolean resumed) {
            PointVerdict verdict = PointVerdict.of(reports, slo);
            RunReport first = reports.getFirst();
            List<Repeats.Metric> across = new ArrayList<>();
            if (reports.size() > 1) {
                across.add(across(reports, "request_throughput", RunResults::requestThroughput));
                across.addAll(verdict.intervals());
            }
            boolean anySaturated = reports.stream()
                    .anyMatch(r -> r.saturation() != null
                            && Boolean.TRUE.equals(r.saturation().saturated()));
            return new Point(
                    index,
                    role,
                    directory,
                    value,
                    first.config().load(),
                    first.results().requests().attempted(),
                    mean(reports, RunResults::requestThroughput),
                    mean(reports, RunResults::outputTokenThroughput),
                    mean(reports, r -> r.ttftMs().p99()),
                    mean(reports, r -> r.tpotMs().p99()),
                    mean(reports, r -> r.e2eLatencyMs().p99()),
                    mean(reports, RunResults::errorRate),
                    first.saturation() == null ? null : anySaturated,
                    verdict.tooShort(),
                    slo == null ? null : verdict.passed(),
                    verdict.confirmed(),
                    verdict.unconfirmed(),
                    verdict.violations(),
                    verdict.lowConfidence(),
                    resumed,
                    reports.size(),
                    List.copyOf(across));
        }

        private static Repeats.Metric across(List<RunReport> reports, String key, Function<RunResults, Double> value) {
            return Repeats.across(
                    key, reports.stream().map(r -> value.apply(r.results())).toList());
        }

        /** The mean across the runs (the value itself for one run); null when no run has it. */
        private static Double mean(List<RunReport> reports, Function<RunResults, Double> value) {
            OptionalDouble mean = reports.stream()
                    .map(r -> value.apply(r.results()))
                    .filter(Objects::nonNull)
                    .mapToDouble(Double::doubleValue)
                    .average();
            return mean.isPresent() ? mean.getAsDouble() : null;
        }
    }

    /** The knee as written: the point's directory and throughput, and why. */
    public record Knee(String directory, double requestThroughput, String risesAt, String reason) {}
}
