package dev.llmload.report;

import dev.llmload.config.RunConfig;
import dev.llmload.analysis.NoteDetector;
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
 * the load served, the steady-state window and the tool's notes on the requests. This is the one end-of-run derivation: the live run and {@link RunRebuild} both
 * call {@link #derive}, so a report rebuilt from the journal equals the one the run wrote. Pure.
 *
 * @param notes       what {@link NoteDetector} found; a report's other notes (telemetry's, the user's)
 *                    are part of the run's own record
 * @param itlSpectrum the inter-token gaps' percentile spectrum, for the HTML page
 */
public record Measurements(RunResults results, TimeSeries timeseries, ScheduleFidelity schedule, Saturation saturation,
                           SteadyState steadyState, List<Note> notes, PercentileSpectrum itlSpectrum) {

    public Measurements {
        notes = List.copyOf(notes);
    }

    /** @param records every record of the run with its token events, warm-up included, in any order */
    public static Measurements derive(List<RequestRecord> records, RunConfig config) {
        try {
            return derive(records, records::forEach, config);
        } catch (IOException e) {
            throw new UncheckedIOException("a list does not fail", e);
        }
    }

    /**
     * The derivation for runs too large to hold with their token events: the records as held
     * (without their token gaps, {@link RequestRecord#withoutTokenGaps}, or with them), then the
     * same records in full streamed from {@code full} once, for the results
     * ({@link RunResults.Accumulator}), the per-second series ({@link TimeSeries.Builder}) and every
     * inter-token statistic: the whole run's gaps and the steady-state window's gaps. Memory: the
     * held records and the accumulators' bounded budget, never every token event.
     *
     * @param records every record of the run, warm-up included, in the order of {@code full}
     * @param full    the same records with their token events
     */
    public static Measurements derive(List<RequestRecord> records, RecordSource full, RunConfig config)
            throws IOException {
        Slo slo = config.slo() == null ? null : config.slo().slo();
        // What the streamed pass needs to know first: the series' origin and length, and where the
        // steady window begins, so that its requests' results and gaps join the same pass.
        TimeSeries.Span span = new TimeSeries.Span();
        SteadyState.Arrivals arrivals = new SteadyState.Arrivals();
        records.forEach(record -> {
            span.add(record);
            arrivals.add(record);
        });
        TimeSeries.Builder series = span.builder();
        RunResults.Accumulator measured = new RunResults.Accumulator(slo);
        SteadyState.Cut cut = arrivals.cut();
        SteadyState.Window window = cut == null ? null : cut.window();
        RunResults.Accumulator windowResults = new RunResults.Accumulator(slo);
        InterTokenGaps gaps = new InterTokenGaps();
        InterTokenGaps windowGaps = new InterTokenGaps();
        // The whole run's gaps and the window's are each taken on a thread of their own beside the
        // series; each accumulator still gets its values from one thread in the order of the
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
            });
        }
        RunResults results = measured.result(gaps);
        Integer gate = config.sessionGate();
        Saturation saturation = Saturation.of(records, config.load());
        SteadyState steady = cut == null ? null : cut.steadyState(windowResults, windowGaps);
        return new Measurements(results, series.build(), ScheduleFidelity.of(records, config.load(), gate),
                saturation, steady, NoteDetector.detect(records, results, config.load(), gate,
                        config.target().stream(), saturation, steady),
                PercentileSpectrum.of(gaps.perEvent()));
    }
}
