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
import java.util.Arrays;
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

    /** What one part of the records' token events adds to the steady window's gaps, the other requests' and the series. */
    private record TokenEventsPart(InterTokenGaps window, InterTokenGaps other, TimeSeries.TokenEvents series) {}

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
     * same records in full streamed from {@code full} once, for every inter-token statistic: the
     * whole run's gaps, the per-second series and the steady-state window's gaps. Memory: the held
     * records and the accumulators' bounded budget, never every token event.
     *
     * @param records every record of the run, warm-up included, in the order of {@code full}
     * @param full    the same records with their token events
     */
    public static Measurements derive(List<RequestRecord> records, RecordSource full, RunConfig config)
            throws IOException {
        Slo slo = config.slo() == null ? null : config.slo().slo();
        TimeSeries.Builder series = TimeSeries.builder(records);
        // The steady window is cut from the held records, so its requests' gaps join the same pass.
        SteadyState.Cut cut = SteadyState.cut(records);
        // A cut whose run never reached a steady state has no window.
        List<RequestRecord> window = cut == null ? null : cut.window();
        long[] inWindow = window == null ? new long[0]
                : window.stream().mapToLong(RequestRecord::index).sorted().toArray();
        InterTokenGaps windowGaps = new InterTokenGaps();
        InterTokenGaps otherGaps = new InterTokenGaps();
        // The token events are folded in parts (a journal's: a chunk of lines each, on its parsing
        // threads), merged in order; every part merges exactly (counts, integer sums, exact values),
        // so no figure depends on how the records were cut or on the threads. Each gap is added
        // once, to the window's gaps or the others': the whole run's are their union.
        full.fold(() -> new TokenEventsPart(windowGaps.newPart(), otherGaps.newPart(), series.newPart()),
                (part, record) -> {
                    (Arrays.binarySearch(inWindow, record.index()) >= 0 ? part.window() : part.other()).add(record);
                    part.series().add(record);
                },
                part -> {
                    windowGaps.merge(part.window());
                    otherGaps.merge(part.other());
                    series.merge(part.series());
                });
        InterTokenGaps gaps = new InterTokenGaps();
        gaps.merge(windowGaps);
        gaps.merge(otherGaps);
        RunResults results = RunResults.compute(records, slo, gaps);
        Integer gate = config.sessionGate();
        Saturation saturation = Saturation.of(records, config.load());
        SteadyState steady = cut == null ? null : cut.steadyState(slo, ignored -> windowGaps);
        return new Measurements(results, series.build(), ScheduleFidelity.of(records, config.load(), gate),
                saturation, steady, NoteDetector.detect(records, results, config.load(), gate,
                        config.target().stream(), saturation, steady),
                PercentileSpectrum.of(gaps.perEvent()));
    }
}
