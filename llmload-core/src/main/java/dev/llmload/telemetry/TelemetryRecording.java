package dev.llmload.telemetry;

import dev.llmload.note.Note;
import dev.llmload.telemetry.engine.EngineKind;
import dev.llmload.telemetry.gpu.GpuReading;
import java.util.List;

/**
 * Everything a {@link TelemetryCollector} gathered, in arrival order, on the run's clock.
 *
 * @param serverKind the engine whose names were read, or {@code null} without server metrics
 * @param server     successful server scrapes (the probe's first scrape included, as a baseline)
 * @param gpu        GPU samples from every GPU source
 * @param gaps       scrapes that failed
 * @param notes      what was skipped or went wrong, and why
 */
public record TelemetryRecording(
        EngineKind serverKind,
        List<ServerReading> server,
        List<GpuReading> gpu,
        List<ScrapeGap> gaps,
        List<Note> notes) {

    public TelemetryRecording {
        server = List.copyOf(server);
        gpu = List.copyOf(gpu);
        gaps = List.copyOf(gaps);
        notes = List.copyOf(notes);
    }
}
