package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vLLM's {@code --percentile-metrics} and {@code --metric-percentiles} choose what the console
 * summary of a real loopback run prints; the figures printed are report.json's, which keeps every
 * metric and percentile.
 */
@Tag("loopback")
class ConsolePercentilesTest {

    @TempDir
    Path dir;

    @Test
    void theChosenMetricsAndPercentilesArePrintedAndReportJsonKeepsEverything() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 1, "prefillMsPerToken", 0, "jitter", 0)))) {
            String[] workload = {
                "--url",
                sim.url(),
                "--concurrency",
                "2",
                "--num-requests",
                "8",
                "--input-tokens",
                "16",
                "--output-tokens",
                "4",
                "--server-metrics",
                "off"
            };
            CapturedRun chosen = CapturedRun.of(
                    new String[] {
                        "run",
                        "--percentile-metrics",
                        "e2el,ttft",
                        "--metric-percentiles",
                        "99.9,50",
                        "--output-dir",
                        dir.resolve("chosen").toString()
                    },
                    workload);
            assertThat(chosen.exitCode()).as(chosen.err()).isZero();

            assertThat(chosen.out())
                    .contains("Time to First Token (ms)", "End-to-end Latency (ms)")
                    .doesNotContain(
                            "Inter-token Latency", "Time per Output Token", "Client Queue Time", "P90 ", "P99 ");
            JsonNode results = new ObjectMapper()
                    .readTree(Files.readString(dir.resolve("chosen").resolve("report.json")))
                    .get("results");
            for (String[] metric : new String[][] {{"TTFT", "ttft_ms"}, {"E2E", "e2e_latency_ms"}}) {
                JsonNode summary = results.get(metric[1]);
                assertThat(valueOf(chosen.out(), "P50 " + metric[0] + " (ms):"))
                        .isEqualTo(String.format(
                                Locale.ROOT, "%.2f", summary.get("p50").asDouble()));
                // 8 samples are too few for p99.9: flagged, as every percentile is below its count.
                assertThat(valueOf(chosen.out(), "P99.9 " + metric[0] + " (ms):"))
                        .isEqualTo(String.format(
                                Locale.ROOT,
                                "%.2f  (low confidence: 8 samples)",
                                summary.get("p99_9").asDouble()));
            }
            // Only the console chose: report.json has every metric with every percentile.
            for (String metric : new String[] {"ttft_ms", "itl_ms", "tpot_ms", "e2e_latency_ms"}) {
                assertThat(results.get(metric).get("p90").isNumber()).as(metric).isTrue();
            }

            CapturedRun plain = CapturedRun.of(
                    new String[] {"run", "--output-dir", dir.resolve("plain").toString()}, workload);
            assertThat(plain.exitCode()).as(plain.err()).isZero();
            assertThat(plain.out())
                    .contains(
                            "Inter-token Latency",
                            "Time per Output Token",
                            "Client Queue Time",
                            "P95 TTFT (ms):",
                            "P99 E2E (ms):")
                    .doesNotContain("P99.9");
        }
    }

    @Test
    void aMetricOrPercentileLlmloadDoesNotKeepIsRefusedBeforeTheRun() {
        CapturedRun percentile = CapturedRun.of("run", "--metric-percentiles", "50,25", "--url", "http://127.0.0.1:1");
        assertThat(percentile.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(percentile.err().strip())
                .isEqualTo("llmload: --metric-percentiles: llmload keeps the percentiles "
                        + "50, 90, 95, 99 and 99.9; '25' is not one of them");
        CapturedRun metric = CapturedRun.of(
                "run", "--percentile-metrics", "ttft,e2el_including_client_queue", "--url", "http://127.0.0.1:1");
        assertThat(metric.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(metric.err().strip())
                .isEqualTo("llmload: --percentile-metrics: llmload prints ttft, tpot, itl, ttst, e2el "
                        + "and client_queue_time; 'e2el_including_client_queue' is not one of them");
    }

    /** The value printed after a 40-wide label. */
    private static String valueOf(String console, String label) {
        return console.lines()
                .filter(l -> l.startsWith(label))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + label + " in\n" + console))
                .substring(40)
                .strip();
    }
}
