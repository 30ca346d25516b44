package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.cli.console.ConsoleSummary;
import dev.llmload.report.RunDirectory;
import dev.llmload.report.RunReport;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import dev.llmload.telemetry.analysis.TelemetrySummary.GaugeStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.GpuSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's "Server (scraped)" block prints the telemetry it is given, including the GPU lines
 * no loopback run can produce (no GPU source here), and leaves out what the server did not expose.
 * The report around the telemetry is a real loopback run's, read back from its report.json.
 */
@Tag("loopback")
class ConsoleServerBlockTest {

    @TempDir
    Path dir;

    @Test
    void printsGpuAndGaugeFiguresAndLeavesOutAbsentOnes() throws Exception {
        RunReport base;
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 1, "prefillMsPerToken", 0, "jitter", 0)))) {
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "2",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.toString());
            assertThat(run.exitCode()).as(run.err()).isZero();
            base = RunDirectory.readReport(dir);
        }
        TelemetrySummary telemetry = new TelemetrySummary(
                "vllm",
                10,
                11,
                1,
                new GaugeStats(0.25, 0.5, null, null),
                null,
                null,
                new GaugeStats(3.0, 4.0, null, null),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                new GpuSummary(87.5, null, 60.25, 80.0, List.of()),
                null,
                List.of());
        RunReport report = new RunReport(
                base.schemaVersion(),
                base.tool(),
                base.run(),
                base.model(),
                base.service(),
                base.hardware(),
                base.load(),
                base.data(),
                base.results(),
                telemetry,
                base.efficiency(),
                base.notes(),
                base.config(),
                base.timeseries(),
                base.schedule(),
                base.client(),
                base.saturation(),
                base.steadyState());

        assertThat(ConsoleSummary.render(report))
                .contains("Server (scraped)")
                .containsPattern("Scrapes \\(gaps\\): +11 \\(1\\)\n")
                .containsPattern("KV cache usage, mean / max: +25\\.00% / 50\\.00%\n")
                .containsPattern("Requests running, mean / max: +3\\.00 / 4\\.00\n")
                .containsPattern("GPU utilisation, mean \\(%\\): +87\\.50\n")
                .containsPattern("GPU memory used, max \\(GiB\\): +60\\.25 of 80\\.00\n")
                .doesNotContain("Requests waiting", "Server queue time");
        assertThat(base.telemetry()).isNull();
        assertThat(ConsoleSummary.render(base)).doesNotContain("Server (scraped)");
    }
}
