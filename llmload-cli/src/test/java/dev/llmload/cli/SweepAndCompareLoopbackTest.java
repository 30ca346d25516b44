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

/** {@code llmload sweep} and {@code llmload compare} end to end against the built-in simulator on loopback. */
@Tag("loopback")
class SweepAndCompareLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A batching engine with 4 seats: up to 4 requests in flight start at once (TTFT about 35 ms),
     * a fifth waits for a whole 64-token generation (about 200 ms). So under p99_ttft:100 the
     * capacity is 4 in flight, with a wide margin either side even on a busy machine.
     */
    private static final String FOUR_SEATS = "speedup: 2\nbatching:\n  maxNumSeqs: 4\n";

    private static final String[] FOUR_SEAT_WORKLOAD = {
        "--num-requests", "16", "--warmup", "4", "--input-tokens", "32", "--output-tokens", "64"
    };
    /**
     * Fixed latency with wide seeded jitter: runs of one configuration differ only by noise, and the
     * jitter (TTFT uniform on 6..54 ms) dwarfs the few milliseconds a busy shared machine adds to one run.
     */
    private static final String FIXED = "engine: fixed\nttftMs: 30\nprefillMsPerToken: 0\nitlMs: 5\njitter: 0.8\n";

    @TempDir
    Path dir;

    private Path simConfig(String name, String yaml) throws Exception {
        return Files.writeString(dir.resolve(name), yaml);
    }

    private static JsonNode json(Path file) throws Exception {
        return JSON.readTree(file.toFile());
    }

    @Test
    void capacityMeetsTheSloWhenRunAgainAndTwentyPercentMoreDoesNot() throws Exception {
        Path sim = simConfig("sim.yaml", FOUR_SEATS);
        Path sweep = dir.resolve("capacity");
        CapturedRun search = CapturedRun.of(
                new String[] {
                    "sweep",
                    "--find-capacity",
                    "--by",
                    "concurrency",
                    "--slo",
                    "p99_ttft:100",
                    "--max-points",
                    "12",
                    "--sim-config",
                    sim.toString(),
                    "--output-dir",
                    sweep.toString()
                },
                FOUR_SEAT_WORKLOAD);
        assertThat(search.exitCode()).as(search.err()).isZero();
        DocSchemas.assertValidAndStrict("sweep.schema.json", sweep.resolve("sweep.json"));
        JsonNode capacity = json(sweep.resolve("sweep.json")).get("capacity");
        assertThat(capacity.get("confirmed").asBoolean()).as(search.out()).isTrue();
        int found = capacity.get("capacity").asInt();
        assertThat(found).isEqualTo(4);
        assertThat(capacity.get("limiting_metric").asText()).isEqualTo("p99_ttft");
        assertThat(search.out()).contains("Capacity: 4 in flight").contains("limited by p99_ttft");

        double atCapacity = p99Ttft(sim, found, "at");
        double above = p99Ttft(sim, (int) Math.ceil(found * 1.2), "above");
        assertThat(atCapacity).isLessThanOrEqualTo(100);
        assertThat(above).isGreaterThan(100);
    }

    private double p99Ttft(Path sim, int concurrency, String name) throws Exception {
        Path run = dir.resolve(name);
        CapturedRun outcome = CapturedRun.of(
                new String[] {
                    "run",
                    "--concurrency",
                    String.valueOf(concurrency),
                    "--sim-config",
                    sim.toString(),
                    "--output-dir",
                    run.toString()
                },
                FOUR_SEAT_WORKLOAD);
        assertThat(outcome.exitCode()).as(outcome.err()).isZero();
        return json(run.resolve("report.json")).at("/results/ttft_ms/p99").asDouble();
    }

    @Test
    void latencyRisesAfterTheKnee() throws Exception {
        Path sim = simConfig("sim.yaml", FOUR_SEATS);
        Path sweep = dir.resolve("knee");
        CapturedRun outcome = CapturedRun.of(
                new String[] {
                    "sweep", "--concurrency", "2,4,8", "--sim-config", sim.toString(), "--output-dir", sweep.toString()
                },
                FOUR_SEAT_WORKLOAD);
        assertThat(outcome.exitCode()).as(outcome.err()).isZero();
        DocSchemas.assertValidAndStrict("sweep.schema.json", sweep.resolve("sweep.json"));
        JsonNode report = json(sweep.resolve("sweep.json"));
        JsonNode knee = report.get("knee");
        assertThat(knee.isNull()).as(outcome.out()).isFalse();
        // With 4 seats throughput doubles from 2 to 4 in flight and stops there, while TTFT climbs at 8.
        JsonNode points = report.get("points");
        int kneeAt = 1;
        assertThat(knee.get("directory").asText()).as(outcome.out()).isEqualTo("02-c4");
        double atKnee = points.get(kneeAt).get("p99_ttft_ms").asDouble();
        for (int i = kneeAt + 1; i < points.size(); i++) {
            assertThat(points.get(i).get("p99_ttft_ms").asDouble()).isGreaterThan(atKnee);
        }
        assertThat(points.get(2).get("p99_ttft_ms").asDouble()).isGreaterThan(2 * atKnee);
        for (String file : new String[] {"summary.csv", "report.html", "01-c2/report.json", "03-c8/requests.jsonl"}) {
            assertThat(sweep.resolve(file)).exists();
        }
        assertThat(Files.readAllLines(sweep.resolve("summary.csv"))).hasSize(4);
    }

    @Test
    void everyPointSendsTheSamePromptsAndAResumedSweepKeepsFinishedPoints() throws Exception {
        Path sim = simConfig("sim.yaml", FIXED);
        Path sweep = dir.resolve("seeded");
        String[] command = {
            "sweep",
            "--request-rate",
            "20,40",
            "--num-requests",
            "12",
            "--input-tokens",
            "uniform:8:200",
            "--output-tokens",
            "4",
            "--seed",
            "11",
            "--sim-config",
            sim.toString()
        };
        CapturedRun first = CapturedRun.of(command, "--output-dir", sweep.toString());
        assertThat(first.exitCode()).as(first.err()).isZero();
        List<String> hashes = new ArrayList<>();
        List<List<Integer>> inputLengths = new ArrayList<>();
        for (String point : new String[] {"01-r20", "02-r40"}) {
            hashes.add(json(sweep.resolve(point).resolve("report.json"))
                    .at("/data/content_hash")
                    .asText());
            List<Integer> lengths = new ArrayList<>(java.util.Collections.nCopies(12, -1));
            for (String line : Files.readAllLines(sweep.resolve(point).resolve("requests.jsonl"))) {
                JsonNode record = JSON.readTree(line);
                lengths.set(
                        record.get("index").asInt(), record.get("input_tokens").asInt());
            }
            inputLengths.add(lengths);
        }
        assertThat(hashes.get(0)).isNotBlank().isEqualTo(hashes.get(1));
        assertThat(inputLengths.get(0)).doesNotContain(-1).isEqualTo(inputLengths.get(1));
        assertThat(inputLengths.get(0).stream().distinct().count())
                .as("lengths vary by index")
                .isGreaterThan(3);

        CapturedRun resumed = CapturedRun.of(command, "--resume", sweep.toString());
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(json(sweep.resolve("sweep.json")).get("points"))
                .allMatch(p -> p.get("resumed").asBoolean());
        assertThat(resumed.out()).contains("kept from before");
    }

    @Test
    @Tag("timing")
    void compareRefusesUnlikeRunsAndPassesTheGateBetweenRepeats() throws Exception {
        Path sim = simConfig("sim.yaml", FIXED);
        Path a = fixedRun(sim, "a", "2", "32");
        Path b = fixedRun(sim, "b", "2", "32");
        Path longer = fixedRun(sim, "longer", "2", "64");
        Path busier = fixedRun(sim, "busier", "4", "32");

        CapturedRun isl = CapturedRun.of(
                "compare",
                a.toString(),
                longer.toString(),
                "--output-dir",
                dir.resolve("c1").toString());
        assertThat(isl.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(isl.err().lines().findFirst().orElseThrow()).contains("not like for like");
        assertThat(isl.err()).contains("data.input_tokens.requested: 32 vs 64").doesNotContain("Exception");

        CapturedRun load = CapturedRun.of(
                "compare",
                a.toString(),
                busier.toString(),
                "--output-dir",
                dir.resolve("c2").toString());
        assertThat(load.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(load.err()).contains("load.concurrency: 2 vs 4");

        CapturedRun allowed = CapturedRun.of(
                "compare",
                a.toString(),
                busier.toString(),
                "--allow-mismatch",
                "--output-dir",
                dir.resolve("c3").toString());
        assertThat(allowed.exitCode()).as(allowed.err()).isZero();
        assertThat(allowed.out()).startsWith("WARNING");
        DocSchemas.assertValidAndStrict(
                "comparison.schema.json", dir.resolve("c3").resolve("comparison.json"));

        Path same = dir.resolve("same");
        CapturedRun repeat = CapturedRun.of(
                "compare",
                a.toString(),
                b.toString(),
                "--output-dir",
                same.toString(),
                "--fail-if",
                "p99_ttft:+10%,output_token_throughput:-10%");
        // 0 compared, 3 a threshold crossed (judged at the end).
        assertThat(repeat.exitCode()).as(repeat.out() + repeat.err()).isIn(0, 3);
        DocSchemas.assertValidAndStrict("comparison.schema.json", same.resolve("comparison.json"));
        JsonNode comparison = json(same.resolve("comparison.json"));
        JsonNode metrics = comparison.get("pairs").get(0).get("metrics");
        assertThat(metrics)
                .filteredOn(m -> m.get("metric").asText().endsWith("_ttft"))
                .hasSize(4)
                .allMatch(m -> m.get("ci_low").isNumber());
        assertThat(Files.readAllLines(same.resolve("comparison.csv"))).hasSize(1 + metrics.size());
        assertThat(same.resolve("report.html")).exists();
        // Two repeats differ only by how the machine scheduled them. Where the run queue is longer
        // than the cores, that alone moves a tail percentile by 10% (seen: p99 ITL), so the gate
        // cannot be judged there: the test ends as skipped, with the load. Whether single metrics
        // come out significant is not judged: a request-level interval sees no run-to-run spread,
        // and of some twenty metrics at 95% one is expected to by chance (two repeats once differed
        // by 19% in mean TTFT on a quiet host); that the gate holds across repeats of one
        // configuration is CompareRepeatsLoopbackTest's and SweepRepeatsLoopbackTest's to show.
        assumeTrue(
                HostLoad.factor() == 1,
                () -> "repeats not judged alike: " + HostLoad.describe() + " (all other checks of this test passed)");
        assertThat(comparison.get("regressions")).as(repeat.out()).isEmpty();
        assertThat(repeat.exitCode()).isZero();
    }

    private Path fixedRun(Path sim, String name, String concurrency, String inputTokens) {
        Path run = dir.resolve(name);
        CapturedRun outcome = CapturedRun.of(
                "run",
                "--concurrency",
                concurrency,
                "--num-requests",
                "44",
                "--warmup",
                "4",
                "--input-tokens",
                inputTokens,
                "--output-tokens",
                "16",
                "--sim-config",
                sim.toString(),
                "--output-dir",
                run.toString());
        assertThat(outcome.exitCode()).as(outcome.err()).isZero();
        return run;
    }
}
