package dev.llmload.analysis;

import dev.llmload.metrics.RequestMetrics;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TokenEventsView;
import dev.llmload.stats.DistributionAccumulator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

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
    /** Samples of one second kept exactly before its percentiles come from a 0.1% histogram. */
    public static final int SECOND_EXACT_CAPACITY = 4096;

    public TimeSeries {
        seconds = List.copyOf(seconds);
    }

    /**
     * Requests in flight, time-weighted over the measured window: the rows' in-flight seconds
     * (Σ latency, Little's law) over the window's length. The series and {@code durationS} share
     * their origin (the first intended send), so the last, partial second is not counted whole.
     *
     * @param durationS the measured window ({@code RunResults#durationS()}); null or 0 gives null
     */
    public Double inFlightMean(Double durationS) {
        if (seconds.isEmpty() || durationS == null || durationS <= 0) {
            return null;
        }
        return seconds.stream().mapToDouble(Second::inFlightMean).sum() / durationS;
    }

    /** The highest per-second output token rate; null when nothing was measured. */
    public Double peakOutputTokensPerS() {
        OptionalDouble peak =
                seconds.stream().mapToDouble(Second::outputTokensPerS).max();
        return peak.isPresent() ? peak.getAsDouble() : null;
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

    /** The series of records with their token events (not {@link RequestRecord#withoutTokenGaps}). */
    public static TimeSeries of(List<RequestRecord> all) {
        Span span = new Span();
        all.forEach(span::add);
        Builder builder = span.builder();
        for (RequestRecord record : all) {
            builder.add(record);
            builder.addTokenEvents(TokenEventsView.of(record));
        }
        return builder.build();
    }

    /**
     * The first of a series' passes over the records: where its origin and its last second lie
     * (the first intended send of the measured records, and the last send or completion), so that
     * the next can give each second its row. Constant memory; the records may be without their
     * token gaps. Owned by one thread.
     */
    public static final class Span {

        private long start = Long.MAX_VALUE;
        private long last = Long.MIN_VALUE;
        private boolean measured;

        public void add(RequestRecord record) {
            if (record.warmup()) {
                return;
            }
            measured = true;
            start = Math.min(start, record.timings().intendedSendNanos());
            last = Math.max(
                    last,
                    Math.max(record.timings().sentNanos(), record.timings().endNanos()));
        }

        /** The builder of the series over this span; hand it the same records. */
        public Builder builder() {
            return measured ? new Builder(start, secondOf(last, start) + 1) : new Builder(0, 0);
        }
    }

    /**
     * A series being built, one row per second of its {@link Span}: each record through {@link #add}
     * (with or without its token gaps) and its token events through {@link #addTokenEvents} or a
     * {@link #newPart}, in any order. Per-second percentiles are exact while a second holds at most
     * {@link #SECOND_EXACT_CAPACITY} samples, and within 0.1% beyond (a {@link DistributionAccumulator}
     * each), so a long run's series stays in bounded memory: a few arrays of one entry per second.
     * Owned by one thread.
     */
    public static final class Builder {

        private final long start;
        private final int n;
        private final long[] started;
        private final long[] finished;
        private final double[] inFlightNanos;
        private final long[] tokens;
        private final DistributionAccumulator[] ttft;
        private final DistributionAccumulator[] itl;
        private final List<Map<FailureClass, Long>> errors;

        private Builder(long start, int n) {
            this.start = start;
            this.n = n;
            started = new long[n];
            finished = new long[n];
            inFlightNanos = new double[n];
            tokens = new long[n];
            ttft = new DistributionAccumulator[n];
            itl = new DistributionAccumulator[n];
            errors = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                Map<FailureClass, Long> counts = new EnumMap<>(FailureClass.class);
                for (FailureClass failureClass : FailureClass.values()) {
                    counts.put(failureClass, 0L);
                }
                errors.add(counts);
            }
        }

        /** Adds one record's sends, ends, errors and TTFT; warm-up records are left out. */
        public void add(RequestRecord record) {
            if (record.warmup()) {
                return;
            }
            RequestTimings timings = record.timings();
            if (timings.sentNanos() >= 0) {
                started[secondOf(timings.sentNanos(), start)]++;
                addOccupancy(
                        inFlightNanos, start, timings.sentNanos(), Math.max(timings.sentNanos(), timings.endNanos()));
            }
            if (timings.endNanos() >= 0) {
                int k = secondOf(timings.endNanos(), start);
                finished[k]++;
                if (record.outcome() instanceof Outcome.Failure failure) {
                    errors.get(k).merge(failure.failureClass(), 1L, Long::sum);
                }
            }
            if (record.succeeded()) {
                Double ttftMs = RequestMetrics.of(record).ttftMs();
                if (ttftMs != null) {
                    sample(ttft, secondOf(timings.firstTokenNanos(), start)).add(ttftMs);
                }
            }
        }

        /** Adds the tokens per second and per-second gaps of one request's token events. */
        public void addTokenEvents(TokenEventsView record) {
            addTokenEvents(record, start, tokens, itl, false);
        }

        /** A part for the token events of some of the records, to {@link #merge} into this builder. */
        public TokenEvents newPart() {
            return new TokenEvents(start, n);
        }

        /** Adds the token events of {@code part}: the series is the same in whatever parts and order they come. */
        public void merge(TokenEvents part) {
            for (int k = 0; k < n; k++) {
                tokens[k] += part.tokens[k];
                if (part.itl[k] != null) {
                    sample(itl, k).merge(part.itl[k]);
                }
            }
        }

        private static void addTokenEvents(
                TokenEventsView record, long start, long[] tokens, DistributionAccumulator[] itl, boolean part) {
            if (record.warmup()) {
                return;
            }
            // One walk over the events: each event's second once, for its tokens and the gap before it.
            int events = record.events();
            boolean gaps = record.succeeded();
            for (int i = 0; i < events; i++) {
                long time = record.timeNanos(i);
                int k = secondOf(time, start);
                tokens[k] += record.tokens(i);
                if (gaps && i > 0) {
                    if (part && itl[k] == null) {
                        // A part's seconds keep their histogram from the first gap: merged into a
                        // second past its exact capacity, they add counts (DistributionAccumulator.part).
                        itl[k] = DistributionAccumulator.part(
                                SECOND_EXACT_CAPACITY, DistributionAccumulator.DEFAULT_RELATIVE_ERROR);
                    }
                    sample(itl, k).addNanosAsMillis(time - record.timeNanos(i - 1));
                }
            }
        }

        public TimeSeries build() {
            List<Second> rows = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                double[] ttftP = ttft[k] == null ? null : ttft[k].percentiles(50, 99);
                double[] itlP = itl[k] == null ? null : itl[k].percentiles(50, 99);
                rows.add(new Second(
                        k,
                        started[k],
                        finished[k],
                        inFlightNanos[k] / NANOS_PER_SECOND,
                        tokens[k],
                        ttftP == null ? null : ttftP[0],
                        ttftP == null ? null : ttftP[1],
                        itlP == null ? null : itlP[0],
                        itlP == null ? null : itlP[1],
                        errors.get(k)));
            }
            return new TimeSeries(start, rows);
        }

        private static DistributionAccumulator sample(DistributionAccumulator[] seconds, int k) {
            if (seconds[k] == null) {
                seconds[k] = new DistributionAccumulator(
                        SECOND_EXACT_CAPACITY, DistributionAccumulator.DEFAULT_RELATIVE_ERROR);
            }
            return seconds[k];
        }
    }

    /**
     * The tokens per second and per-second gaps of some of a run's records, counted on a thread of
     * their own (one owner at a time) and merged into their {@link Builder}.
     */
    public static final class TokenEvents {

        private final long start;
        private final long[] tokens;
        private final DistributionAccumulator[] itl;

        private TokenEvents(long start, int n) {
            this.start = start;
            this.tokens = new long[n];
            this.itl = new DistributionAccumulator[n];
        }

        /** As {@link Builder#addTokenEvents}. */
        public void add(TokenEventsView record) {
            Builder.addTokenEvents(record, start, tokens, itl, true);
        }
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
}
