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
 * The console's Goodput section, from a real loopback run: printed only with SLOs, and its numbers
 * are those of the same run's report.json (an independent reading of what the console says).
 */
@Tag("loopback")
class ConsoleGoodputTest {

    @TempDir
    Path dir;

    @Test
    void goodputIsPrintedWithSlosOnlyAndAgreesWithReportJson() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 1, "prefillMsPerToken", 0, "jitter", 0)))) {
            CapturedRun withSlo = CapturedRun.of(
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "12",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4",
                    "--server-metrics",
                    "off",
                    "--slo",
                    "e2e:10000",
                    "--output-dir",
                    dir.resolve("slo").toString());
            assertThat(withSlo.exitCode()).as(withSlo.err()).isZero();
            Path runDir = Path.of(withSlo.out()
                    .lines()
                    .filter(l -> l.startsWith("Run directory: "))
                    .findFirst()
                    .orElseThrow()
                    .substring("Run directory: ".length())
                    .strip());
            JsonNode goodput = new ObjectMapper()
                    .readTree(Files.readString(runDir.resolve("report.json")))
                    .at("/results/goodput");
            assertThat(goodput.isObject()).isTrue();
            // A 10 s limit on a 5 ms server: the run met it, so the figures compared are not all zero.
            assertThat(goodput.get("met").asLong()).isPositive();
            assertThat(withSlo.out()).contains("Goodput (requests meeting the SLOs)");
            assertThat(valueOf(withSlo.out(), "Requests meeting the SLOs:"))
                    .isEqualTo(String.format(
                            Locale.ROOT,
                            "%d of %d (%.2f%%)",
                            goodput.get("met").asLong(),
                            goodput.get("attempted").asLong(),
                            goodput.get("met_share").asDouble() * 100));
            assertThat(valueOf(withSlo.out(), "Request goodput (req/s):"))
                    .isEqualTo(String.format(
                            Locale.ROOT, "%.2f", goodput.get("request_goodput").asDouble()));
            assertThat(valueOf(withSlo.out(), "Output token goodput (tok/s):"))
                    .isEqualTo(String.format(
                            Locale.ROOT,
                            "%.2f",
                            goodput.get("output_token_goodput").asDouble()));

            CapturedRun plain = CapturedRun.of(
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "6",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("plain").toString());
            assertThat(plain.exitCode()).as(plain.err()).isZero();
            assertThat(plain.out()).contains("llmload benchmark result").doesNotContain("Goodput");
        }
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
