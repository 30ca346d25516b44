package dev.llmload.report;

import dev.llmload.analysis.NoteDetector;
import dev.llmload.analysis.RequestTimes;
import dev.llmload.analysis.Saturation;
import dev.llmload.analysis.ScheduleFidelity;
import dev.llmload.analysis.SteadyState;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.InterTokenGaps;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.Slo;
import dev.llmload.note.Note;
import dev.llmload.record.RecordSource;
import dev.llmload.record.RequestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * What a run's requests say about it, from its journaled records and its configuration alone: the
 * results, the per-second series, how well the client kept its schedule, the load offered beside
 * the load served, the steady-state window, the tool's notes on the requests, and what the HTML
 * page shows of them. This is the one end-of-run derivation: the live run, {@code RunRebuild} and
 * {@code SegmentMerge} all call {@link #derive}, so a report rebuilt from the journal equals the
 * one the run wrote. Pure.
 *
 * <p>Memory: two passes over the records, never holding one. The first, without their token
 * events, keeps each request's times in primitive columns ({@link RequestTimes}, about 80 bytes a
 * request, and its index, 8 more) for the analyses that take the requests in order of intended or
 * actual send, and counts for the notes; the second, with the token events, feeds the bounded
 * accumulators of the results, the series, the steady window (and its requests' indexes, 8 bytes
 * each) and the page.
 *
 * @param notes what {@link NoteDetector} found; a report's other notes (telemetry's, the user's)
 *              are part of the run's own record
 * @param page  what report.html shows of the requests
 */
public record Measurements(
        RunResults results,
        TimeSeries timeseries,
        ScheduleFidelity schedule,
        Saturation saturation,
        SteadyState steadyState,
        List<Note> notes,
        RunPage page) {

    public Measurements {
        notes = List.copyOf(notes);
    }

    /** @param records every record of the run with its token events, warm-up included, in any order */
    public static Measurements derive(List<RequestRecord> records, RunConfig config) {
        try {
            return derive(records::forEach, records::forEach, config);
        } catch (IOException e) {
            throw new UncheckedIOException("a list does not fail", e);
        }
    }

    /** What one part of the records' token events adds to the steady window's gaps, the other requests' and the series. */
    private record TokenEventsPart(InterTokenGaps window, InterTokenGaps other, TimeSeries.TokenEvents series) {}

    /**
     * The derivation in two passes over the same records in the same order, none held: once
     * without their token gaps ({@link RequestRecord#withoutTokenGaps}, cheaper to read), then
     * once in full ({@link RecordSource#fold(java.util.function.Supplier, java.util.function.BiConsumer,
     * java.util.function.Consumer, java.util.function.Consumer)}: the token events and the records).
     *
     * @param compact every record of the run, warm-up included, with or without its token gaps
     * @param full    the same records with their token events, in the same order
     */
    public static Measurements derive(RecordSource compact, RecordSource full, RunConfig config) throws IOException {
        Slo slo = config.slo() == null ? null : config.slo().slo();
        // First: the requests' times for the order-based analyses and the steady window's cut, the
        // notes' counts, the whole run's results, the series' origin and length, and each
        // request's index by its place.
        TimeSeries.Span span = new TimeSeries.Span();
        RequestTimes times = new RequestTimes();
        NoteDetector.Tally tally = new NoteDetector.Tally();
        RunResults.Accumulator measured = new RunResults.Accumulator(slo);
        LongList indexes = new LongList();
        compact.forEach(record -> {
            span.add(record);
            times.add(record);
            tally.add(record);
            measured.add(record);
            indexes.add(record.index());
        });
        // The steady window's requests, from the first pass's columns: the token events' parts
        // need them as the second pass reads the lines.
        SteadyState.Cut cut = SteadyState.cut(times);
        // A cut whose run never reached a steady state has no window.
        SteadyState.Window window = cut == null ? null : cut.window();
        LongList windowIndexes = new LongList();
        if (window != null) {
            for (int i = 0; i < times.size(); i++) {
                if (window.contains(times.warmup(i), times.intendedNanos(i))) {
                    windowIndexes.add(indexes.get(i));
                }
            }
        }
        long[] inWindow = windowIndexes.sorted();
        // Second and last: one read of the records for everything else. The token events are
        // folded in parts (a journal's: a chunk of lines each, on its parsing threads, each line
        // seen through a view reused from line to line), merged in order; every part merges
        // exactly (counts, integer sums, exact values), so no figure depends on how the records
        // were cut or on the threads. Each gap is added once, to the window's gaps or the others':
        // the whole run's are their union. Beside them, each record in order (without its token
        // gaps) for what needs the first pass's findings: the series' rows, the steady window's
        // results and the page's every k-th request.
        TimeSeries.Builder series = span.builder();
        SteadyState.Window inOrder = cut == null ? null : cut.window();
        RunResults.Accumulator windowResults = new RunResults.Accumulator(slo);
        RunPage.Builder page = new RunPage.Builder(times.size());
        InterTokenGaps windowGaps = new InterTokenGaps();
        InterTokenGaps otherGaps = new InterTokenGaps();
        full.fold(
                () -> new TokenEventsPart(windowGaps.newPart(), otherGaps.newPart(), series.newPart()),
                (part, events) -> {
                    (Arrays.binarySearch(inWindow, events.index()) >= 0 ? part.window() : part.other()).add(events);
                    part.series().add(events);
                },
                part -> {
                    windowGaps.merge(part.window());
                    otherGaps.merge(part.other());
                    series.merge(part.series());
                },
                record -> {
                    series.add(record);
                    if (inOrder != null && inOrder.contains(record)) {
                        windowResults.add(record);
                    }
                    page.add(record);
                });
        InterTokenGaps gaps = new InterTokenGaps();
        gaps.merge(windowGaps);
        gaps.merge(otherGaps);
        RunResults results = measured.result(gaps);
        Integer gate = config.sessionGate();
        Saturation saturation = Saturation.of(times, config.load());
        SteadyState steady = cut == null ? null : cut.steadyState(windowResults, windowGaps);
        return new Measurements(
                results,
                series.build(),
                ScheduleFidelity.of(times, config.load(), gate),
                saturation,
                steady,
                NoteDetector.detect(
                        times, tally, results, config.load(), gate, config.target().stream(), saturation, steady),
                page.build(PercentileSpectrum.of(gaps.perEvent())));
    }

    /** Request indexes, as they come: 8 bytes each. */
    private static final class LongList {

        private long[] values = new long[64];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = value;
        }

        long get(int i) {
            return values[i];
        }

        long[] sorted() {
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            return sorted;
        }
    }
}
