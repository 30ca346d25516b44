package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.testsupport.HostLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --repeat 3} against the fixed-latency engine with a fixed seed: repeats.json holds each
 * repeat's own values and their statistics, and the repeats measure what a single run of the same
 * configuration measures.
 */
@Tag("loopback")
@Tag("timing")
class RepeatsLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fixed latency with seeded jitter: TTFT uniform on 15..45 ms, each token 3..7 ms. */
    private static final String FIXED = "engine: fixed\nttftMs: 30\nprefillMsPerToken: 0\nitlMs: 5\njitter: 0.5\n";

    /**
     * 124 requests of 4 output tokens: each still has a TTFT, three token gaps and a TPOT, and a run
     * measures its mean ITL over 372 gaps (3..7 ms each: a standard error near 0.06 ms, far inside the
     * 10% a fourth run is held to). 16 tokens made every run three times as long for no check here.
     */
    private static final String[] WORKLOAD = {
        "--concurrency",
        "4",
        "--num-requests",
        "124",
        "--warmup",
        "4",
        "--input-tokens",
        "32",
        "--output-tokens",
        "4",
        "--seed",
        "5"
    };

    @TempDir
    Path dir;

    private CapturedRun run(Path sim, Path out, String... more) {
        String[] args = new String[2 + WORKLOAD.length + 4 + more.length];
        args[0] = "run";
        args[1] = "--overwrite";
        System.arraycopy(WORKLOAD, 0, args, 2, WORKLOAD.length);
        int at = 2 + WORKLOAD.length;
        args[at++] = "--sim-config";
        args[at++] = sim.toString();
        args[at++] = "--output-dir";
        args[at++] = out.toString();
        System.arraycopy(more, 0, args, at, more.length);
        return CapturedRun.of(args);
    }

    @Test
    void threeRepeatsAreSummarisedFromTheirOwnReportsAndMeasureWhatOneRunDoes() throws Exception {
        Path sim = Files.writeString(dir.resolve("sim.yaml"), FIXED);
        Path repeats = dir.resolve("repeats");
        CapturedRun three = run(sim, repeats, "--repeat", "3");
        assertThat(three.exitCode()).as(three.err()).isZero();
        assertThat(three.out()).contains("Across 3 runs");
        JsonNode[] results = new JsonNode[3];
        for (int i = 1; i <= 3; i++) {
            results[i - 1] = JSON.readTree(repeats.resolve("repeat-" + i)
                            .resolve("report.json")
                            .toFile())
                    .get("results");
        }
        DocSchemas.assertValidAndStrict("repeats.schema.json", repeats.resolve("repeats.json"));
        JsonNode summary = JSON.readTree(repeats.resolve("repeats.json").toFile());
        assertThat(summary.get("runs")).hasSize(3);

        // Each metric's values are the repeats' own, and its statistics are recomputed here by hand:
        // sample std (n − 1) and Student's t for 2 degrees of freedom, 4.3026527.
        int checked = 0;
        for (JsonNode metric : summary.get("metrics")) {
            String key = metric.get("metric").asText();
            double[] values = new double[3];
            for (int i = 0; i < 3; i++) {
                values[i] = valueOf(results[i], key);
            }
            if (Double.isNaN(values[0])) {
                continue;
            }
            for (int i = 0; i < 3; i++) {
                assertThat(metric.get("values").get(i).asDouble()).as(key).isCloseTo(values[i], within(1e-9));
            }
            double mean = (values[0] + values[1] + values[2]) / 3;
            double std = Math.sqrt(((values[0] - mean) * (values[0] - mean)
                            + (values[1] - mean) * (values[1] - mean)
                            + (values[2] - mean) * (values[2] - mean))
                    / 2);
            double tolerance = 1e-9 * Math.max(1, Math.abs(mean));
            assertThat(metric.get("mean").asDouble()).as(key).isCloseTo(mean, within(tolerance));
            assertThat(metric.get("std").asDouble()).as(key).isCloseTo(std, within(tolerance));
            assertThat(metric.get("ci_high").asDouble())
                    .as(key)
                    .isCloseTo(mean + 4.302652729911275 * std / Math.sqrt(3), within(tolerance));
            assertThat(metric.get("prediction_low").asDouble())
                    .as(key)
                    .isCloseTo(mean - 4.302652729911275 * std * Math.sqrt(4.0 / 3), within(tolerance));
            checked++;
        }
        assertThat(checked)
                .as("throughputs, TTFT, ITL, TPOT and E2E statistics")
                .isGreaterThanOrEqualTo(15);

        // A single run of the same configuration sends the same requests and measures the same server.
        // Whether it falls inside each 95% prediction interval is a matter of chance (RepeatsTest checks
        // that the intervals hold at their confidence); here the repeats must not have measured
        // something else: the same counts exactly, and latencies within a tenth of theirs.
        Path fourth = dir.resolve("fourth");
        CapturedRun one = run(sim, fourth);
        assertThat(one.exitCode()).as(one.err()).isZero();
        JsonNode report = JSON.readTree(fourth.resolve("report.json").toFile()).get("results");
        for (JsonNode repeat : results) {
            assertThat(report.get("requests")).isEqualTo(repeat.get("requests"));
            assertThat(report.get("input_tokens")).isEqualTo(repeat.get("input_tokens"));
            assertThat(report.get("output_tokens")).isEqualTo(repeat.get("output_tokens"));
        }
        // Where the run queue is longer than the cores, the machine's share moves a whole run's latencies.
        assumeTrue(
                HostLoad.factor() == 1,
                () -> "a fourth run's latencies not judged: " + HostLoad.describe()
                        + " (the repeats, repeats.json and the fourth run's counts were checked)");
        for (String key : List.of("mean_ttft", "mean_itl", "mean_e2e")) {
            JsonNode metric = metric(summary, key);
            assertThat(valueOf(report, key))
                    .as("%s of a fourth run against %s", key, metric)
                    .isCloseTo(metric.get("mean").asDouble(), withinPercentage(10));
        }
    }

    private static JsonNode metric(JsonNode summary, String key) {
        for (JsonNode metric : summary.get("metrics")) {
            if (metric.get("metric").asText().equals(key)) {
                return metric;
            }
        }
        throw new AssertionError("no " + key + " in repeats.json");
    }

    /** The report's value of a compare metric key such as {@code p99_ttft} or {@code request_throughput}. */
    private static double valueOf(JsonNode results, String key) {
        if (results.has(key)) {
            return results.get(key).asDouble();
        }
        String[] parts = key.split("_", 2);
        String family = switch (parts[1]) {
            case "e2e" -> "e2e_latency_ms";
            default -> parts[1] + "_ms";
        };
        JsonNode summary = results.get(family);
        if (summary == null || !summary.has(parts[0]) || summary.get(parts[0]).isNull()) {
            return Double.NaN;
        }
        return summary.get(parts[0]).asDouble();
    }
}
