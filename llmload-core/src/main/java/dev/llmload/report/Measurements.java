package dev.llmload.report;

import dev.llmload.analysis.NoteDetector;
import dev.llmload.analysis.ScheduleFidelity;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.Slo;
import dev.llmload.note.Note;
import dev.llmload.record.RequestRecord;
import dev.llmload.run.RunConfig;
import java.util.List;

/**
 * What a run's requests say about it, from its journaled records and its configuration alone: the
 * results, the per-second series, how well the client kept its schedule and the tool's notes on
 * the requests. This is the one end-of-run derivation: the live run and {@link RunRebuild} both
 * call {@link #derive}, so a report rebuilt from the journal equals the one the run wrote. Pure.
 *
 * @param notes what {@link NoteDetector} found; a report's other notes (telemetry's, the user's)
 *              are part of the run's own record
 */
public record Measurements(RunResults results, TimeSeries timeseries, ScheduleFidelity schedule, List<Note> notes) {

    public Measurements {
        notes = List.copyOf(notes);
    }

    /**
     * @param records every record of the run, warm-up included, in any order
     * @throws IllegalArgumentException when the configuration's {@code --slo} does not parse
     */
    public static Measurements derive(List<RequestRecord> records, RunConfig config) {
        Slo slo = config.slo() == null ? null : Slo.parse(config.slo());
        RunResults results = RunResults.compute(records, slo);
        Integer gate = sessionGate(config);
        return new Measurements(results, TimeSeries.of(records), ScheduleFidelity.of(records, config.load(), gate),
                NoteDetector.detect(records, results, config.load(), gate));
    }

    /**
     * The bound on sessions in flight of an open-loop session run: requests held back by it waited
     * for a slot and did not lag their schedule. Null for every other run.
     */
    private static Integer sessionGate(RunConfig config) {
        return config.data().sessions() == null || !config.load().isOpen() ? null
                : config.data().sessions().maxSessions();
    }
}
