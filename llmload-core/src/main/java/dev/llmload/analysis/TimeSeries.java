package dev.llmload.analysis;

import dev.llmload.metrics.RequestMetrics;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.stats.Statistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The measured phase of a run second by second, for {@code timeseries.csv} and the HTML charts.
 * Second k covers [start + k s, start + (k + 1) s), where start is the first intended send of the
 * measured (non-warm-up) requests, the same origin as the run's duration. The last second is the
 * one holding the last send or completion, so it may be partial. Warm-up requests are left out.
 * Pure arithmetic.
 *
 * @param startNanos the origin, as an offset from the run's start; 0 when nothing was measured
 * @param seconds    one row per second, without gaps; empty when nothing was measured
 */
public record TimeSeries(long startNanos, List<Second> seconds) {

    static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final double NANOS_PER_MS = 1_000_000.0;

    public TimeSeries {
        seconds = List.copyOf(seconds);
    }

    /**
     * One second of the run. Latency percentiles are null when no sample fell in the second.
     *
     * @param started          requests sent (after the concurrency gate) in the second
     * @param finished         requests that ended in the second, whatever their outcome
     * @param inFlightMean     requests in flight averaged over the second: each request adds the
     *                         fraction of the second it spent between its send and its end, so the
     *                         rows sum to Σ latency (Little's law) rather than sampling one instant
     * @param outputTokensPerS tokens of all token-bearing events in the second (failed requests'
     *                         partial streams included: the server generated them), per second
     * @param ttftP50Ms        of successful requests whose first token came in the second
     * @param itlP50Ms         of per-event gaps of successful requests that ended in the second
     * @param errors           failures by class (every {@link FailureClass}, zero included) that
     *                         ended in the second
     */
    public record Second(
            int second,
            long started,
            long finished,
            double inFlightMean,
            double outputTokensPerS,
            Double ttftP50Ms,
            Double ttftP99Ms,
            Double itlP50Ms,
            Double itlP99Ms,
            Map<FailureClass, Long> errors) {

        public Second {
            errors = Collections.unmodifiableMap(new EnumMap<>(errors));
        }
    }

    public static TimeSeries of(List<RequestRecord> all) {
        List<RequestRecord> measured = all.stream().filter(r -> !r.warmup()).toList();
        if (measured.isEmpty()) {
            return new TimeSeries(0, List.of());
        }
        long start = measured.stream().mapToLong(r -> r.timings().intendedSendNanos()).min().orElseThrow();
        long last = measured.stream().mapToLong(r -> Math.max(r.timings().sentNanos(), r.timings().endNanos())).max().orElseThrow();
        int n = secondOf(last, start) + 1;

        long[] started = new long[n];
        long[] finished = new long[n];
        double[] inFlightNanos = new double[n];
        long[] tokens = new long[n];
        List<List<Double>> ttft = buckets(n);
        List<List<Double>> itl = buckets(n);
        List<Map<FailureClass, Long>> errors = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            Map<FailureClass, Long> counts = new EnumMap<>(FailureClass.class);
            for (FailureClass failureClass : FailureClass.values()) {
                counts.put(failureClass, 0L);
            }
            errors.add(counts);
        }

        for (RequestRecord record : measured) {
            RequestTimings timings = record.timings();
            if (timings.sentNanos() >= 0) {
                started[secondOf(timings.sentNanos(), start)]++;
                addOccupancy(inFlightNanos, start, timings.sentNanos(), Math.max(timings.sentNanos(), timings.endNanos()));
            }
            if (timings.endNanos() >= 0) {
                int k = secondOf(timings.endNanos(), start);
                finished[k]++;
                if (record.outcome() instanceof Outcome.Failure failure) {
                    errors.get(k).merge(failure.failureClass(), 1L, Long::sum);
                }
            }
            long[] times = timings.tokenEventNanos();
            int[] counts = record.tokenEventCounts();
            for (int i = 0; i < times.length; i++) {
                tokens[secondOf(times[i], start)] += counts[i];
            }
            if (record.succeeded()) {
                Double ttftMs = RequestMetrics.of(record).ttftMs();
                if (ttftMs != null) {
                    ttft.get(secondOf(timings.firstTokenNanos(), start)).add(ttftMs);
                }
                for (int i = 1; i < times.length; i++) {
                    itl.get(secondOf(times[i], start)).add((times[i] - times[i - 1]) / NANOS_PER_MS);
                }
            }
        }

        List<Second> rows = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            double[] ttftSorted = sorted(ttft.get(k));
            double[] itlSorted = sorted(itl.get(k));
            rows.add(new Second(k, started[k], finished[k], inFlightNanos[k] / NANOS_PER_SECOND, tokens[k],
                    percentile(ttftSorted, 50), percentile(ttftSorted, 99),
                    percentile(itlSorted, 50), percentile(itlSorted, 99),
                    errors.get(k)));
        }
        return new TimeSeries(start, rows);
    }

    /** Index of the second holding {@code nanos}; instants before the origin count in second 0. */
    static int secondOf(long nanos, long start) {
        return (int) (Math.max(0, nanos - start) / NANOS_PER_SECOND);
    }

    /** Adds the overlap of [from, to) with each second to that second's in-flight nanoseconds. */
    private static void addOccupancy(double[] inFlightNanos, long start, long from, long to) {
        for (int k = secondOf(from, start); k < inFlightNanos.length; k++) {
            long secondStart = start + k * NANOS_PER_SECOND;
            long secondEnd = secondStart + NANOS_PER_SECOND;
            if (to <= secondStart) {
                break;
            }
            inFlightNanos[k] += Math.min(to, secondEnd) - Math.max(from, secondStart);
        }
    }

    private static List<List<Double>> buckets(int n) {
        List<List<Double>> buckets = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            buckets.add(new ArrayList<>());
        }
        return buckets;
    }

    private static double[] sorted(List<Double> values) {
        double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(array);
        return array;
    }

    private static Double percentile(double[] sorted, double p) {
        return sorted.length == 0 ? null : Statistics.percentile(sorted, p);
    }
}
