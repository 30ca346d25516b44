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
import java.util.List;

/**
 * What a run's requests say about it, from its journaled records and its configuration alone: the
 * results, the per-second series, how well the client kept its schedule, the load offered beside
 * the load served, the steady-state window and the tool's notes on the requests. This is the one end-of-run derivation: the live run and {@link RunRebuild} both
 * call {@link #derive}, so a report rebuilt from the journal equals the one the run wrote. Pure.
 *
 * @param notes what {@link NoteDetector} found; a report's other notes (telemetry's, the user's)
 *              are part of the run's own record
 */
public record Measurements(RunResults results, TimeSeries timeseries, ScheduleFidelity schedule, Saturation saturation,
                           SteadyState steadyState, List<Note> notes) {

    public Measurements {
        notes = List.copyOf(notes);
    }

    /** @param records every record of the run, warm-up included, in any order */
    public static Measurements derive(List<RequestRecord> records, RunConfig config) {
        Slo slo = config.slo() == null ? null : config.slo().slo();
        RunResults results = RunResults.compute(records, slo);
        Integer gate = config.sessionGate();
        Saturation saturation = Saturation.of(records, config.load());
        SteadyState steady = SteadyState.of(records, slo);
        return new Measurements(results, TimeSeries.of(records), ScheduleFidelity.of(records, config.load(), gate),
                saturation, steady, NoteDetector.detect(records, results, config.load(), gate,
                        config.target().stream(), saturation, steady));
    }
}
