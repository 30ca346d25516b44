package dev.llmload.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.RunResult;
import dev.llmload.config.ConfigException;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * The gate as a user's test writes it, against the embedded simulator over real loopback HTTP. The
 * fixed-latency simulator gives every request a TTFT of 50 ms, the floor of what the client can
 * measure, so a limit far above it passes and one far below it fails, on any machine.
 */
@Tag("loopback")
class LatencyGateTest {

    private static final Duration SIMULATED_TTFT = Duration.ofMillis(50);

    @TempDir
    Path dir;

    /** A gate of 40 short requests, 4 in flight, on a simulator with a TTFT of 50 ms and 1 ms between tokens. */
    private static LatencyGate fixedLatencyGate() {
        return LatencyGate.against(LatencyGate.fixedLatencySimulator(SIMULATED_TTFT, Duration.ofMillis(1)))
                .requests(40)
                .concurrency(4)
                .tokens(32, 8)
                .configure(run -> run.seed(7).grace(Duration.ofSeconds(5)).ioThreads(2));
    }

    @Test
    void passesWhenTheServerIsWithinEveryLimitAndLeavesNothingOnDisk() throws Exception {
        RunResult result = fixedLatencyGate()
                .requireP99TtftBelow(Duration.ofSeconds(10))
                .requireP99E2eBelow(Duration.ofSeconds(20))
                .requireErrorRateBelow(0.01)
                .check();

        assertThat(result.results().requests().attempted()).isEqualTo(40);
        assertThat(result.results().requests().succeeded()).isEqualTo(40);
        assertThat(result.results().errorRate()).isZero();
        // The simulator waits 50 ms before the first token: no request can be measured faster.
        assertThat(result.results().ttftMs().min()).isGreaterThanOrEqualTo(50.0);
        assertThat(result.results().outputTokens().mean()).isEqualTo(8.0);
        assertThat(result.records()).hasSize(40);
        // No run directory was asked for: the one the run wrote in (named by its run id) is gone.
        assertThat(result.directory()).isEmpty();
        String runId = result.report().run().id();
        assertThat(runId).startsWith("llmload-run-");
        assertThat(Path.of(System.getProperty("java.io.tmpdir")).resolve(runId)).doesNotExist();
    }

    @Test
    void failsWithTheMetricItsLimitTheMeasuredValueAndTheRunDirectory() {
        Path runDir = dir.resolve("gate-run");
        LatencyGate gate = fixedLatencyGate()
                .keepRunDirectory(runDir)
                .requireP99TtftBelow(Duration.ofMillis(5))
                .requireErrorRateBelow(0.01);

        AssertionFailedError failure = (AssertionFailedError)
                org.junit.jupiter.api.Assertions.assertThrows(AssertionFailedError.class, gate::check);

        double measuredMs = (Double) failure.getActual().getValue();
        assertThat(measuredMs).isGreaterThanOrEqualTo(50.0);
        assertThat(failure.getExpected().getValue()).isEqualTo(5.0);
        assertThat(failure.getMessage())
                .startsWith("llmload latency gate failed against the embedded simulator at http://127.0.0.1:")
                .contains("40 measured requests")
                .contains("run directory: " + runDir)
                .contains("\n  p99 TTFT (results.ttft_ms.p99): measured " + Requirement.number(measuredMs)
                        + " ms (from 40 samples; p99 rests on 100 or more), limit below 5 ms")
                // The error rate was within its limit, so it is not among the failures.
                .doesNotContain("error rate");
        assertThat(runDir.resolve("report.json")).isRegularFile();
        assertThat(runDir.resolve("requests.jsonl")).isRegularFile();
    }

    @Test
    void failsOnTheErrorRateOfAFaultyServerAndListsEveryLimitMissed() throws Exception {
        SimConfig faulty = SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 50.0, "itlMs", 1.0, "faults", List.of("http-500@0.5")));
        LatencyGate gate = LatencyGate.against(faulty)
                .requests(40)
                .concurrency(4)
                .tokens(32, 8)
                .configure(run -> run.seed(7).ioThreads(2))
                .requireErrorRateBelow(0.01)
                .requireP99TtftBelow(Duration.ofMillis(5));

        assertThatThrownBy(gate::check)
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("run directory: none kept")
                .hasMessageMatching("(?s).*\n  error rate \\(results\\.error_rate\\): measured [0-9.]+% "
                        + "\\([1-9][0-9]* of 40 requests failed\\), limit below 1%\n  p99 TTFT .*");
    }

    @Test
    void gatesAServerGivenByItsUrl() throws Exception {
        try (SimServer server =
                SimServer.start(LatencyGate.fixedLatencySimulator(SIMULATED_TTFT, Duration.ofMillis(1)))) {
            LatencyGate gate = LatencyGate.against(server.url())
                    .requests(8)
                    .concurrency(2)
                    .tokens(16, 4)
                    .configure(run -> run.ioThreads(1));

            RunResult result = gate.requireP99TtftBelow(Duration.ofSeconds(10)).check();
            assertThat(result.results().requests().succeeded()).isEqualTo(8);
            assertThat(result.report().config().target().url().text()).isEqualTo(server.url());

            assertThatThrownBy(gate.requireP99TtftBelow(Duration.ofMillis(5))::check)
                    .isInstanceOf(AssertionFailedError.class)
                    .hasMessageStartingWith(
                            "llmload latency gate failed against " + server.url() + " (8 measured requests");
        }
    }

    @Test
    void aBadSettingIsAConfigExceptionInTheCommandLinesWords() {
        assertThatThrownBy(() -> fixedLatencyGate()
                        .requests(0)
                        .requireErrorRateBelow(0.01)
                        .check())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--num-requests must be at least 1, got 0");
        assertThatThrownBy(() -> LatencyGate.against("ftp://example"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--url: ");
        assertThatThrownBy(() -> fixedLatencyGate().check())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without a limit");
        assertThat(Files.exists(dir.resolve("gate-run"))).isFalse();
    }
}
