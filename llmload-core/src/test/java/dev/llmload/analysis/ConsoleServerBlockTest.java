package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.Load;
import dev.llmload.report.console.ConsoleSummary;
import dev.llmload.report.RunReport;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import dev.llmload.telemetry.analysis.TelemetrySummary.GaugeStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.GpuSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The console's "Server (scraped)" block prints the telemetry it is given, including the GPU lines
 * no loopback run can produce (no GPU source here), and leaves out what the server did not expose.
 */
class ConsoleServerBlockTest {

    @Test
    void printsGpuAndGaugeFiguresAndLeavesOutAbsentOnes() {
        RunReport base = Reports.of(List.of(Records.ok(0, 0, 0, 100, 120)), Load.closed(1), null);
        TelemetrySummary telemetry = new TelemetrySummary("vllm", 10, 11, 1,
                new GaugeStats(0.25, 0.5, null, null), null, null, new GaugeStats(3.0, 4.0, null, null), null,
                null, null, null, null, null, null, null, null, null,
                new GpuSummary(87.5, null, 60.25, 80.0, List.of()), null, List.of());
        RunReport report = new RunReport(base.schemaVersion(), base.tool(), base.run(), base.model(), base.service(),
                base.hardware(), base.load(), base.data(), base.results(), telemetry, base.efficiency(), base.notes(),
                base.config(), base.timeseries(), base.schedule(), base.client(), base.saturation(), base.steadyState());

        assertThat(ConsoleSummary.render(report))
                .contains("Server (scraped)")
                .containsPattern("Scrapes \\(gaps\\): +11 \\(1\\)\n")
                .containsPattern("KV cache usage, mean / max: +25\\.00% / 50\\.00%\n")
                .containsPattern("Requests running, mean / max: +3\\.00 / 4\\.00\n")
                .containsPattern("GPU utilisation, mean \\(%\\): +87\\.50\n")
                .containsPattern("GPU memory used, max \\(GiB\\): +60\\.25 of 80\\.00\n")
                .doesNotContain("Requests waiting", "Server queue time");
        assertThat(ConsoleSummary.render(base)).doesNotContain("Server (scraped)");
    }
}
