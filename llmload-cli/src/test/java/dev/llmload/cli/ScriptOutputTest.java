package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --json} and {@code --quiet}: standard output holds what a script reads, and nothing else. */
@Tag("loopback")
class ScriptOutputTest {

    @TempDir
    Path dir;

    private static CapturedRun run(SimServer sim, Path out, String... extra) {
        String[] base = {
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
            out.toString()
        };
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return CapturedRun.of(args);
    }

    @Test
    void jsonPutsOnlyTheResultsOnStandardOutputAndQuietOnlyTheRunDirectory() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 1, "prefillMsPerToken", 0, "jitter", 0)))) {
            CapturedRun json = run(sim, dir.resolve("json"), "--json");
            assertThat(json.exitCode()).as(json.err()).isZero();
            JsonNode results = new ObjectMapper().readTree(json.out());
            assertThat(results.at("/requests/attempted").asLong()).isEqualTo(6);
            assertThat(results.at("/ttft_ms/p50").isNumber()).isTrue();
            assertThat(json.out().strip().lines().count()).isEqualTo(1);
            // The person at the terminal still gets the summary, on standard error.
            assertThat(json.err()).contains("llmload benchmark result");

            CapturedRun quiet = run(sim, dir.resolve("quiet"), "--quiet");
            assertThat(quiet.exitCode()).as(quiet.err()).isZero();
            assertThat(quiet.out()).isEqualTo("Run directory: " + dir.resolve("quiet") + System.lineSeparator());
            assertThat(quiet.err()).doesNotContain("llmload benchmark result").doesNotContain("progress:");

            CapturedRun both = run(sim, dir.resolve("both"), "--json", "--quiet");
            assertThat(both.exitCode()).isZero();
            assertThat(new ObjectMapper()
                            .readTree(both.out())
                            .at("/requests/succeeded")
                            .asLong())
                    .isEqualTo(6);
            assertThat(both.err()).doesNotContain("llmload benchmark result");
        }
    }
}
