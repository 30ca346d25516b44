package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.testsupport.HostLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare --fail-if mean_ttft:+5%} as a release gate: runs of one configuration never fail
 * it against each other, and a server twice as slow to the first token does.
 */
@Tag("loopback")
// A 5% gate on mean TTFT between runs made one after another: a neighbour's load during one of
// them would move it.
@Tag("timing")
class CompareRepeatsLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Fixed latency with wide seeded jitter (TTFT uniform on 6..54 ms): repeats differ by chance only. The
     * gate is on mean TTFT alone, so each answer is two tokens 1 ms apart: the tokens after the first
     * only lengthened every run (16 tokens 5 ms apart tripled it) and are judged by no check here.
     */
    private static final String FIXED = "engine: fixed\nttftMs: 30\nprefillMsPerToken: 0\nitlMs: 1\njitter: 0.8\n";

    private static final String SLOWER = "engine: fixed\nttftMs: 60\nprefillMsPerToken: 0\nitlMs: 1\njitter: 0.8\n";

    @TempDir
    Path dir;

    @Test
    void repeatsOfOneConfigurationNeverFailTheGateAndASlowerServerDoes() throws Exception {
        List<Path> repeats = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // The server's own randomness differs from run to run, as a real server's does.
            Path sim = Files.writeString(dir.resolve("sim-" + i + ".yaml"), FIXED + "seed: " + (100 + i) + "\n");
            repeats.add(run(sim, "repeat-" + i));
        }
        for (int i = 1; i < repeats.size(); i++) {
            for (int j = 0; j < i; j++) {
                Path out = dir.resolve("compare-" + j + "-" + i);
                CapturedRun compare = CapturedRun.of(
                        "compare",
                        repeats.get(j).toString(),
                        repeats.get(i).toString(),
                        "--fail-if",
                        "mean_ttft:+5%",
                        "--output-dir",
                        out.toString());
                assertThat(compare.exitCode()).as(compare.out() + compare.err()).isZero();
                JsonNode ttft = meanTtft(out);
                // The interval shown covers at least the request bootstrap's.
                assertThat(ttft.get("ci_low").asDouble())
                        .isLessThanOrEqualTo(ttft.get("sampling_ci_low").asDouble());
                assertThat(ttft.get("ci_high").asDouble())
                        .isGreaterThanOrEqualTo(ttft.get("sampling_ci_high").asDouble());
            }
        }

        // The slower server adds 30 ms to a mean TTFT of 30: where the host's lateness alone put half as
        // much again on the baseline's, runs made one after another differ by the load as much as by the server.
        double baselineTtftMs = JSON.readTree(
                        repeats.getFirst().resolve("report.json").toFile())
                .at("/results/ttft_ms/mean")
                .asDouble();
        assumeTrue(
                baselineTtftMs < 45,
                () -> "the baseline's mean TTFT was " + baselineTtftMs + " ms against the" + " simulator's 30 ("
                        + HostLoad.describe() + "): a 30 ms slower server is not told apart here");
        Path slower = run(Files.writeString(dir.resolve("slower.yaml"), SLOWER + "seed: 200\n"), "slower");
        Path out = dir.resolve("compare-slower");
        CapturedRun gate = CapturedRun.of(
                "compare",
                repeats.getFirst().toString(),
                slower.toString(),
                "--fail-if",
                "mean_ttft:+5%",
                "--output-dir",
                out.toString());
        assertThat(gate.exitCode()).as(gate.out() + gate.err()).isEqualTo(3);
        assertThat(gate.out()).contains("REGRESSION").contains("mean_ttft");
    }

    private Path run(Path sim, String name) {
        Path run = dir.resolve(name);
        CapturedRun outcome = CapturedRun.of(
                "run",
                "--concurrency",
                "8",
                "--num-requests",
                "204",
                "--warmup",
                "4",
                "--input-tokens",
                "32",
                "--output-tokens",
                "2",
                "--seed",
                "3",
                "--sim-config",
                sim.toString(),
                "--output-dir",
                run.toString());
        assertThat(outcome.exitCode()).as(outcome.err()).isZero();
        return run;
    }

    private static JsonNode meanTtft(Path comparison) throws Exception {
        for (JsonNode metric : JSON.readTree(
                        comparison.resolve("comparison.json").toFile())
                .get("pairs")
                .get(0)
                .get("metrics")) {
            if (metric.get("metric").asText().equals("mean_ttft")) {
                return metric;
            }
        }
        throw new AssertionError("no mean_ttft in " + comparison);
    }
}
