package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.analysis.NoteDetector;
import dev.llmload.load.FixedSimulator;
import dev.llmload.note.Note;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.write.RunRebuild;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end of a run and {@code llmload report} derive a report the same way: a rebuild of a
 * finished run from its journal reproduces its report.json exactly, and a run killed before its
 * report (only run.json and the journal left) gets the same measurements and request notes.
 */
@Tag("loopback")
class RunRebuildLoopbackTest {

    @TempDir
    Path dir;

    @Test
    void aRebuildDerivesWhatTheRunDerived() throws Exception {
        // Rate-limited answers and a small run: the tool's notes have something to say.
        try (SimServer sim = FixedSimulator.start(2, 1, Map.of("faults", List.of("http-429@0.3"), "seed", 3))) {
            BenchmarkRun.Result run =
                    SimulatorRuns.run(SimulatorRuns.closedLoop(sim.url(), 2, 30, 16, 4, dir.resolve("run")));
            assertThat(run.report().notes()).extracting(Note::kind).contains("rate_limited", "low_sample_count");
            Path reportJson = run.directory().resolve(ReportFiles.REPORT_JSON);
            JsonNode written = ReportFiles.JSON.readTree(reportJson.toFile());

            RunRebuild.Rebuilt rebuilt = RunRebuild.rebuild(run.directory());
            assertThat(rebuilt.fromFinishedRun()).isTrue();
            assertThat(ReportFiles.JSON.readTree(reportJson.toFile())).isEqualTo(written);

            Files.delete(reportJson);
            RunRebuild.Rebuilt afterCrash = RunRebuild.rebuild(run.directory());
            assertThat(afterCrash.fromFinishedRun()).isFalse();
            assertThat(afterCrash.report().run().interrupted()).isTrue();
            JsonNode rebuiltJson = ReportFiles.JSON.readTree(reportJson.toFile());
            for (String derived : List.of("results", "timeseries", "schedule")) {
                assertThat(rebuiltJson.get(derived)).as(derived).isEqualTo(written.get(derived));
            }
            // The telemetry's notes come from the end of the run, which a killed run never reached.
            assertThat(afterCrash.report().notes())
                    .isEqualTo(run.report().notes().stream()
                            .filter(n -> NoteDetector.KINDS.contains(n.kind()))
                            .toList());
        }
    }
}
