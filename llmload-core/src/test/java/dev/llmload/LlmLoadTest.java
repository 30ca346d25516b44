package dev.llmload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.ConfigException;
import dev.llmload.config.RunConfig;
import dev.llmload.run.RunException;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library entry point: what it returns, what it writes, and how it refuses. */
class LlmLoadTest {

    @TempDir
    Path dir;

    private static RunConfig.Builder shortRun() {
        return RunConfig.builder()
                .concurrency(2)
                .numRequests(6L)
                .inputTokens("16")
                .outputTokens("4")
                .seed(3)
                .grace(Duration.ofSeconds(5))
                .ioThreads(1);
    }

    @Test
    @Tag("loopback")
    void aRunDirectoryAskedForHoldsTheReportOfTheResultsReturned() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 20.0, "prefillMsPerToken", 0.0, "itlMs", 1.0)))) {
            Path runDir = dir.resolve("run");
            RunResult result =
                    LlmLoad.run(shortRun().url(sim.url()).outputDir(runDir).build());

            assertThat(result.directory()).contains(runDir);
            assertThat(result.results().requests().succeeded()).isEqualTo(6);
            assertThat(result.records()).hasSize(6);
            JsonNode report =
                    new ObjectMapper().readTree(runDir.resolve("report.json").toFile());
            assertThat(report.at("/results/requests/succeeded").asLong()).isEqualTo(6);
            assertThat(report.at("/results/ttft_ms/p50").asDouble())
                    .isEqualTo(result.results().ttftMs().p50());
            assertThat(report.at("/run/command_line").asText()).isEqualTo(LlmLoad.COMMAND_LINE);
            assertThat(report.at("/tool/version").asText()).isEqualTo(LlmLoad.version());
            assertThat(Files.readAllLines(runDir.resolve("requests.jsonl"))).hasSize(6);
            // A second run never mixes its files with the first's, as on the command line.
            assertThatThrownBy(() -> LlmLoad.run(
                            shortRun().url(sim.url()).outputDir(runDir).build()))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage(
                            "--output-dir " + runDir + " is not empty; choose another directory or add --overwrite");
        }
    }

    @Test
    @Tag("loopback")
    void aConfigWithoutAUrlRunsAgainstTheServerGivenAndIsRecordedAsASimulatorRun() throws Exception {
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 5.0, "itlMs", 1.0)))) {
            RunResult result = LlmLoad.run(shortRun().build(), sim.url());

            assertThat(result.results().requests().succeeded()).isEqualTo(6);
            assertThat(result.report().config().target().url()).isNull();
            assertThat(result.report().service().url()).startsWith(sim.url());
            assertThat(result.directory()).isEmpty();
            assertThat(Path.of(System.getProperty("java.io.tmpdir"))
                            .resolve(result.report().run().id()))
                    .doesNotExist();
        }
    }

    @Test
    @Tag("loopback")
    void aServerThatRefusesTheTestRequestStopsTheRunBeforeAnyLoad() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.defaults())) {
            // The simulator knows no /nowhere/v1/chat/completions: a 404, as every request would get.
            RunConfig config = shortRun()
                    .url(sim.url() + "/nowhere")
                    .api("chat")
                    .model("m")
                    .build();

            assertThatThrownBy(() -> LlmLoad.run(config))
                    .isInstanceOf(RunException.class)
                    .hasMessageStartingWith("the server refused llmload's test request, so every request would fail: ");
        }
    }

    @Test
    void refusesWithTheCommandLinesWords() {
        assertThatThrownBy(() -> LlmLoad.run(shortRun().build()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--url: a URL is required");
        assertThatThrownBy(() -> LlmLoad.run(shortRun().build(), "no url"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--url: ");
        assertThatThrownBy(() -> shortRun().numRequests(0L).build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--num-requests must be at least 1, got 0");
    }

    @Test
    void knowsItsVersion() {
        assertThat(LlmLoad.version()).matches("\\d+\\.\\d+\\.\\d+.*");
    }
}
