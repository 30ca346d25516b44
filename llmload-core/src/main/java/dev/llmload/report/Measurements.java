package dev.llmload.report;

import dev.llmload.config.RunConfig;
import dev.llmload.analysis.NoteDetector;
import dev.llmload.analysis.RequestTimes;
import dev.llmload.analysis.Saturation;
import dev.llmload.analysis.SteadyState;
import dev.llmload.analysis.ScheduleFidelity;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.Slo;
import dev.llmload.note.Note;
import dev.llmload.record.RequestRecord;
import dev.llmload.metrics.InterTokenGaps;
import dev.llmload.record.RecordSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What a run's requests say about it, from its journaled records and its configuration alone: the
 * results, the per-second series, how well the client kept its schedule, the load offered beside
 * the load served, the steady-state window, the tool's notes on the requests, and what the HTML
 * page shows of them. This is the one end-of-run derivation: the live run, {@link RunRebuild} and
 * {@link SegmentMerge} all call {@link #derive}, so a report rebuilt from the journal equals the
 * one the run wrote. Pure.
 *
 * <p>Memory: two passes over the records, never holding one. The first keeps each request's times
 * in primitive columns ({@link RequestTimes}, about 80 bytes a request) for the analyses that take
 * the requests in order of intended or actual send, and counts for the notes; the second, with the
 * token events, feeds the bounded accumulators of the results, the series, the steady window and
 * the page.
 *
 * @param notes what {@link NoteDetector} found; a report's other notes (telemetry's, the user's)
 *              are part of the run's own record
 * @param page  what report.html shows of the requests
 */
public record Measurements(RunResults results, TimeSeries timeseries, ScheduleFidelity schedule, Saturation saturation,
                           SteadyState steadyState, List<Note> notes, RunPage page) {

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

    /**
     * The derivation in two passes over the same records in the same order: the first may give
     * them without their token gaps ({@link RequestRecord#withoutTokenGaps}, cheaper to read), the
     * second gives them in full.
     *
     * @param compact every record of the run, warm-up included, with or without its token gaps
     * @param full    the same records with their token events, in the same order
     */
    public static Measurements derive(RecordSource compact, RecordSource full, RunConfig config) throws IOException {
        Slo slo = config.slo() == null ? null : config.slo().slo();
        // What the streamed pass needs to know first: the series' origin and length, where the
        // steady window begins (so that its requests' results and gaps join the same pass), how
        // many requests the page picks from, and the requests' times for the order-based analyses.
        TimeSeries.Span span = new TimeSeries.Span();
        RequestTimes times = new RequestTimes();
        NoteDetector.Tally tally = new NoteDetector.Tally();
        compact.forEach(record -> {
            span.add(record);
            times.add(record);
            tally.add(record);
        });
        TimeSeries.Builder series = span.builder();
        RunResults.Accumulator measured = new RunResults.Accumulator(slo);
        SteadyState.Cut cut = SteadyState.cut(times);
        SteadyState.Window window = cut == null ? null : cut.window();
        RunResults.Accumulator windowResults = new RunResults.Accumulator(slo);
        RunPage.Builder page = new RunPage.Builder(times.size());
        InterTokenGaps gaps = new InterTokenGaps();
        InterTokenGaps windowGaps = new InterTokenGaps();
        // The whole run's gaps and the window's are each taken on a thread of their own beside the
        // rest; each accumulator still gets its values from one thread in the order of the
        // records, so no figure depends on the threads.
        try (OrderedHandOff wholeRun = new OrderedHandOff(gaps::add);
             OrderedHandOff steadyWindow = new OrderedHandOff(windowGaps::add)) {
            full.forEach(record -> {
                wholeRun.accept(record);
                if (window != null && window.contains(record)) {
                    steadyWindow.accept(record);
                    windowResults.add(record);
                }
                series.add(record);
                measured.add(record);
                page.add(record);
            });
        }
        RunResults results = measured.result(gaps);
        Integer gate = config.sessionGate();
        Saturation saturation = Saturation.of(times, config.load());
        SteadyState steady = cut == null ? null : cut.steadyState(windowResults, windowGaps);
        return new Measurements(results, series.build(), ScheduleFidelity.of(times, config.load(), gate),
                saturation, steady, NoteDetector.detect(times, tally, results, config.load(), gate,
                        config.target().stream(), saturation, steady),
                page.build(PercentileSpectrum.of(gaps.perEvent())));
    }
}
