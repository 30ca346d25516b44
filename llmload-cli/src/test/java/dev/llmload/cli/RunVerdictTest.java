package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finished run fails for CI as documented: exit 4 when every request failed or the error rate
 * passed {@code --max-error-rate}, exit 3 when {@code --fail-if} finds a regression against
 * {@code --baseline}; the run directory is written either way.
 */
@Tag("loopback")
class RunVerdictTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static SimServer simulator(int ttftMs, List<String> faults) {
        return SimServer.start(
                SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", ttftMs, "itlMs", 1, "faults", faults)));
    }

    private CapturedRun run(SimServer sim, String name, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--url",
                sim.url(),
                "--concurrency",
                "2",
                "--num-requests",
                "20",
                "--input-tokens",
                "16",
                "--output-tokens",
                "4",
                "--server-metrics",
                "off",
                "--output-dir",
                dir.resolve(name).toString()));
        args.addAll(List.of(more));
        return CapturedRun.of(args.toArray(String[]::new));
    }

    private JsonNode results(String name) throws Exception {
        return JSON.readTree(dir.resolve(name).resolve("report.json").toFile()).path("results");
    }

    @Test
    void aRunWhoseEveryRequestFailedExitsFour() throws Exception {
        try (SimServer sim = simulator(5, List.of("http-500@1.0"))) {
            CapturedRun outcome = run(sim, "all-failed");
            assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(RunCommand.EXIT_FAILED_RUN);
            assertThat(outcome.err().strip().lines().toList().getLast()).contains("every request failed (20 of 20)");
        }
        assertThat(results("all-failed").at("/requests/failed").asInt()).isEqualTo(20);
    }

    @Test
    void theErrorRateAgainstMaxErrorRateDecidesTheExitCode() throws Exception {
        try (SimServer sim = simulator(5, List.of("http-503@0.3"))) {
            CapturedRun strict = run(sim, "strict", "--max-error-rate", "0.05");
            CapturedRun lenient = run(sim, "lenient", "--max-error-rate", "0.95");
            double strictRate = results("strict").path("error_rate").asDouble();
            // The simulator's seeded faults: some requests failed, not all.
            assertThat(strictRate).isGreaterThan(0.05).isLessThan(1);
            assertThat(strict.exitCode()).as(strict.err()).isEqualTo(RunCommand.EXIT_FAILED_RUN);
            assertThat(strict.err()).contains("above --max-error-rate 0.05");
            assertThat(results("lenient").path("error_rate").asDouble()).isLessThan(0.95);
            assertThat(lenient.exitCode()).as(lenient.err()).isZero();
        }
    }

    @Test
    void failIfHoldsTheRunAgainstItsBaselineAsCompareDoes() throws Exception {
        try (SimServer fast = simulator(5, List.of())) {
            assertThat(run(fast, "baseline").exitCode()).isZero();
            CapturedRun same =
                    run(fast, "same", "--baseline", dir.resolve("baseline").toString(), "--fail-if", "p50_ttft:+1000%");
            assertThat(same.exitCode()).as(same.err()).isZero();
        }
        // Twenty times the time to first token: a significant rise far past 50%.
        try (SimServer slow = simulator(100, List.of())) {
            CapturedRun slower =
                    run(slow, "slower", "--baseline", dir.resolve("baseline").toString(), "--fail-if", "p50_ttft:+50%");
            assertThat(slower.exitCode()).as(slower.err()).isEqualTo(CompareCommand.EXIT_REGRESSION);
            assertThat(slower.err().strip().lines()).hasSize(1);
            assertThat(slower.err()).contains("--fail-if").contains("p50_ttft");
        }
    }

    /**
     * Twenty requests against a baseline of twenty, the second run twenty times slower to its
     * first token: p99 rests on too few samples to be judged, p50 regresses, a generous limit
     * passes; each limit's verdict is printed, and only {@code --fail-if-unjudged} lets the
     * unjudged one fail the run.
     */
    @Test
    void everyLimitIsJudgedAloudAndUnjudgedFailsOnlyWhenAsked() throws Exception {
        try (SimServer fast = simulator(5, List.of())) {
            assertThat(run(fast, "baseline").exitCode()).isZero();
        }
        String baselineDir = dir.resolve("baseline").toString();
        try (SimServer slow = simulator(100, List.of())) {
            CapturedRun quietPass = run(slow, "few", "--baseline", baselineDir, "--fail-if", "p99_ttft:+10%");
            assertThat(quietPass.exitCode()).as(quietPass.err()).isZero();
            assertThat(quietPass.out())
                    .containsPattern("NOT JUDGED  few: p99_ttft:\\+10%: too few samples for p99 \\(it needs 100 in each"
                            + " run\\); measured [0-9.]+ -> [0-9.]+ \\([+-][0-9.]+%\\)");

            CapturedRun strict = run(
                    slow,
                    "strict",
                    "--baseline",
                    baselineDir,
                    "--fail-if",
                    "p99_ttft:+10%,p50_ttft:+50%,p90_ttft:+100000%",
                    "--fail-if-unjudged");
            assertThat(strict.exitCode()).as(strict.err()).isEqualTo(CompareCommand.EXIT_REGRESSION);
            assertThat(strict.out())
                    .contains("NOT JUDGED  strict: p99_ttft:+10%")
                    .contains("REGRESSION  strict: p50_ttft:+50%")
                    .contains("PASS  strict: p90_ttft:+100000%");

            CapturedRun unjudged = run(
                    slow,
                    "unjudged",
                    "--baseline",
                    baselineDir,
                    "--fail-if",
                    "p99_ttft:+10%,p90_ttft:+100000%",
                    "--fail-if-unjudged",
                    "--quiet");
            assertThat(unjudged.exitCode()).as(unjudged.err()).isEqualTo(CompareCommand.EXIT_UNJUDGED);
            // --quiet keeps standard output for the run directory; the verdicts go to standard error.
            assertThat(unjudged.err())
                    .contains("llmload: --fail-if: NOT JUDGED  unjudged: p99_ttft:+10%")
                    .contains("llmload: --fail-if: PASS  unjudged: p90_ttft:+100000%")
                    .contains("--fail-if-unjudged");
        }
        // llmload compare judges the same two runs alike, and writes each verdict to comparison.json.
        CapturedRun compare = CapturedRun.of(
                "compare",
                baselineDir,
                dir.resolve("few").toString(),
                "--fail-if",
                "p99_ttft:+10%",
                "--fail-if-unjudged",
                "--output-dir",
                dir.resolve("compared").toString());
        assertThat(compare.exitCode()).as(compare.err()).isEqualTo(CompareCommand.EXIT_UNJUDGED);
        assertThat(compare.out()).contains("NOT JUDGED  few: p99_ttft:+10%: too few samples for p99");
        JsonNode verdict = JSON.readTree(
                        dir.resolve("compared").resolve("comparison.json").toFile())
                .path("verdicts")
                .path(0);
        assertThat(verdict.path("outcome").asText()).isEqualTo("NOT JUDGED");
        assertThat(verdict.path("limit").asText()).isEqualTo("p99_ttft:+10%");
        DocSchemas.assertValidAndStrict(
                "comparison.schema.json", dir.resolve("compared").resolve("comparison.json"));
    }

    @Test
    void verdictMistakesAreUsageErrorsBeforeAnyRequest() {
        for (String[] args : List.of(
                new String[] {"--max-error-rate", "2"},
                new String[] {"--fail-if", "p99_ttft:+10%"},
                new String[] {"--baseline", dir.toString()},
                new String[] {"--fail-if-unjudged"},
                new String[] {"--fail-if", "p99_ttft:10%", "--baseline", dir.toString()},
                new String[] {
                    "--fail-if",
                    "p99_ttft:+10%",
                    "--baseline",
                    dir.resolve("none").toString()
                })) {
            List<String> all = new ArrayList<>(List.of("run", "--url", "http://127.0.0.1:1"));
            all.addAll(List.of(args));
            CapturedRun outcome = CapturedRun.of(all.toArray(String[]::new));
            assertThat(outcome.exitCode()).as(all.toString()).isEqualTo(Main.EXIT_USAGE);
            assertThat(outcome.err().strip().lines()).as(all.toString()).hasSize(1);
        }
    }
}
