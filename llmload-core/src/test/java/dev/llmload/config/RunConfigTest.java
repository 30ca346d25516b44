package dev.llmload.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.report.ReportFiles;
import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.schedule.Schedule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunConfigTest {

    /** A closed loop with a profile and most options set, as the command line would build it. */
    private static RunConfig closed() {
        return RunConfig.builder()
                .url("http://127.0.0.1:8000")
                .api("chat")
                .model("m")
                .concurrency(8)
                .concurrencyProfile("ramp:1:8:10s")
                .numRequests(100L)
                .duration(Duration.ofSeconds(30))
                .warmup("5")
                .inputTokens("256")
                .outputTokens("128")
                .rangeRatio(0.1)
                .sharedPrefix("4:64:zipf:1.2")
                .seed(3)
                .firstTokenTimeout(Duration.ofSeconds(3))
                .serverKind("vllm")
                .gpuMetrics(List.of("http://g:9400/metrics"))
                .nvidiaSmi(Duration.ofSeconds(2))
                .scrapeInterval(Duration.ofMillis(500))
                .outputDir(Path.of("results/x"))
                .metadata(Map.of("hardware.gpu_model", "H100"))
                .notes(List.of("n1"))
                .insecure(true)
                .ioThreads(2)
                .scenario("chat")
                .slo("ttft:500,tpot:50")
                .exports(List.of("vllm"))
                .build();
    }

    /** An open loop of gamma arrivals starting sessions. */
    private static RunConfig openSessions() {
        return RunConfig.builder().api("completions").stream(false)
                .ignoreEos(false)
                .requestRate(5.0)
                .arrival("gamma")
                .burstiness(0.5)
                .duration(Duration.ofSeconds(30))
                .warmup("5s")
                .sessions("uniform:2:6")
                .thinkTime("1000")
                .maxSessions(3)
                .ioThreads(4)
                .build();
    }

    @Test
    void writesTheLayoutEarlierReportsHaveByteForByte() throws IOException {
        String outputDir = Path.of("results/x").toUri().toString();
        assertThat(ReportFiles.JSON.writeValueAsString(closed()) + "\n")
                .isEqualTo(golden("closed-config.json").replace("OUTPUT_DIR", outputDir));
        assertThat(ReportFiles.JSON.writeValueAsString(openSessions()) + "\n").isEqualTo(golden("open-config.json"));
    }

    @Test
    void readsBackWhatItWrote() throws IOException {
        for (RunConfig config : List.of(closed(), openSessions())) {
            String json = ReportFiles.JSON.writeValueAsString(config);
            RunConfig read = ReportFiles.JSON.readValue(json, RunConfig.class);
            assertThat(ReportFiles.JSON.writeValueAsString(read)).isEqualTo(json);
            assertThat(read.withOutputDir(null)).isEqualTo(config.withOutputDir(null));
        }
    }

    @Test
    void eachValueIsReadOnceIntoItsType() {
        RunConfig config = closed();
        assertThat(((Load.Closed) config.load()).plan()).isInstanceOf(ConcurrencyPlan.Ramp.class);
        assertThat(config.slo().slo().ttftMs()).isEqualTo(500.0);
        assertThat(config.target().url().endpoint().basePath()).isEqualTo("/v1");
        assertThat(config.data().outputTokens().distribution().describe()).isEqualTo("uniform:115:141");
        assertThat(openSessions().sessionGate()).isEqualTo(3);
    }

    @Test
    void aBurstinessAloneMeansGammaArrivals() {
        RunConfig config =
                RunConfig.builder().requestRate(10.0).burstiness(0.25).build();

        assertThat(config.load()).isInstanceOf(Load.Open.class);
        Load.Open open = (Load.Open) config.load();
        assertThat(open.arrival()).isEqualTo(Load.Arrival.GAMMA);
        assertThat(open.process()).isEqualTo(new ArrivalProcess.Gamma(10.0, 0.25));
        // And the schedule it makes is gamma: the gaps' coefficient of variation is 1/sqrt(K) = 2, not Poisson's 1.
        long[] offsets = Schedule.build(open.process(), 20_000, null, 7).offsetsNanos();
        double[] gaps = new double[offsets.length - 1];
        for (int i = 1; i < offsets.length; i++) {
            gaps[i - 1] = offsets[i] - offsets[i - 1];
        }
        double mean = java.util.Arrays.stream(gaps).average().orElseThrow();
        double std = Math.sqrt(
                java.util.Arrays.stream(gaps).map(g -> (g - mean) * (g - mean)).sum() / gaps.length);
        assertThat(std / mean).isCloseTo(2.0, org.assertj.core.data.Offset.offset(0.15));
    }

    @Test
    void aParameterThatWouldGoUnusedIsRefused() {
        assertThatThrownBy(() -> RunConfig.builder()
                        .requestRate(10.0)
                        .arrival("constant")
                        .burstiness(0.5)
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--burstiness applies to gamma arrivals, not --arrival constant");
        assertThatThrownBy(
                        () -> RunConfig.builder().concurrency(4).burstiness(0.5).build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--burstiness applies to open-loop runs (with --request-rate)");
    }

    @Test
    void aLibraryUserGetsTheCommandLinesOneLineErrors() {
        assertThatThrownBy(() -> RunConfig.builder().numRequests(0L).build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--num-requests must be at least 1, got 0");
        assertThatThrownBy(() -> RunConfig.builder().numRequests(5L).warmup("5").build())
                .hasMessage("--warmup must be fewer than --num-requests, got 5");
        assertThatThrownBy(() -> RunConfig.builder().ioThreads(0).build())
                .hasMessage("--io-threads must be at least 1");
        assertThatThrownBy(() -> RunConfig.builder()
                        .scrapeInterval(Duration.ofMillis(50))
                        .build())
                .hasMessage("--scrape-interval must be at least 100ms");
        assertThatThrownBy(() -> RunConfig.builder().exports(List.of("csv")).build())
                .hasMessage("--export: unknown format 'csv' (expected vllm)");
        assertThatThrownBy(() ->
                        RunConfig.builder().concurrency(2).requestRate(5.0).build())
                .hasMessageStartingWith("give either --concurrency (closed loop) or --request-rate");
        assertThatThrownBy(() -> RunConfig.builder().ramp("1:x:10s").build())
                .hasMessage("'1:x:10s': 'x' is not a number");
        // A shape sets its own rates: a rate beside it is refused, not silently dropped.
        assertThatThrownBy(() ->
                        RunConfig.builder().requestRate(5.0).bursts("2:20:10s").build())
                .hasMessageStartingWith("--request-rate does not combine with --bursts");
        assertThatThrownBy(() -> RunConfig.builder().url("127.0.0.1:8000").build())
                .hasMessage("--url: 127.0.0.1:8000 has no scheme: add http:// (http://127.0.0.1:8000) or https://");
        assertThatThrownBy(() -> RunConfig.builder().serverKind("vlm").build())
                .hasMessageStartingWith("unknown --server-kind 'vlm'");
        assertThatThrownBy(() ->
                        RunConfig.builder().nvidiaSmi(Duration.ofMillis(10)).build())
                .hasMessage("--nvidia-smi must be at least 100ms");
        assertThatThrownBy(() -> RunConfig.builder().slo("ttft:fast").build()).hasMessageStartingWith("--slo: ");
        assertThatThrownBy(() -> RunConfig.builder().url("ftp://example").build())
                .hasMessageStartingWith("--url: ");
        assertThatThrownBy(() -> new Bounds(0L, null, 0, null, dev.llmload.load.Timeouts.defaults(), Duration.ZERO))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> Load.closed(0)).hasMessage("--concurrency must be at least 1, got 0");
    }

    /**
     * {@code --num-sessions} counts sessions: it needs a session workload, and given alone it is
     * the run's bound, so no default request count cuts its sessions; a request count given too
     * is kept beside it.
     */
    @Test
    void aCountOfSessionsNeedsSessionsAndReplacesTheDefaultRequestCount(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        assertThatThrownBy(
                        () -> RunConfig.builder().sessions("3").numSessions(0).build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--num-sessions must be at least 1, got 0");
        String refusal =
                "--num-sessions counts sessions: it applies with --sessions (or --scenario agentic) or a session --trace";
        assertThatThrownBy(() -> RunConfig.builder().numSessions(5).build()).hasMessage(refusal);
        assertThatThrownBy(() -> RunConfig.builder()
                        .dataset(Path.of("pom.xml"))
                        .numSessions(5)
                        .build())
                .hasMessage(refusal);
        assertThatThrownBy(() -> RunConfig.builder()
                        .trace(Path.of("pom.xml"))
                        .traceFormat("mooncake")
                        .numSessions(5)
                        .build())
                .hasMessage(refusal);

        RunConfig closed = RunConfig.builder().sessions("3").numSessions(5).build();
        assertThat(closed.bounds().numSessions()).isEqualTo(5);
        assertThat(closed.bounds().numRequests()).isNull();
        // An open loop needs a bound, and the count of sessions is one.
        RunConfig open = RunConfig.builder()
                .sessions("3")
                .requestRate(2.0)
                .numSessions(5)
                .build();
        assertThat(open.bounds().numRequests()).isNull();
        RunConfig both =
                RunConfig.builder().sessions("3").numSessions(5).numRequests(9L).build();
        assertThat(both.bounds().numRequests()).isEqualTo(9L);
        assertThat(both.bounds().numSessions()).isEqualTo(5);
        // A trace whose format its file tells is checked when the run reads it.
        Path trace = java.nio.file.Files.writeString(dir.resolve("t.jsonl"), "{\"timestamp\":0}\n");
        assertThat(RunConfig.builder()
                        .trace(trace)
                        .numSessions(2)
                        .build()
                        .bounds()
                        .numSessions())
                .isEqualTo(2);
        // A closed loop's bound is kept when the sweep sets the request count.
        assertThat(closed.withNumRequests(30).bounds().numSessions()).isEqualTo(5);
    }

    @Test
    void theKeyIsReadFromItsSourceAndNeverBecomesPartOfTheConfig(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        String secret = "sk-config-test-4411";
        Path keyFile = java.nio.file.Files.writeString(dir.resolve("key"), secret + "\n");
        RunConfig config = RunConfig.builder().apiKeyFile(keyFile).build();

        assertThat(config.target().keySource().read()).isEqualTo(secret);
        assertThat(config.toString()).doesNotContain(secret);
        assertThat(ReportFiles.JSON.writeValueAsString(config))
                .doesNotContain(secret)
                .doesNotContain(keyFile.toString());
        java.nio.file.Files.writeString(keyFile, "\n");
        assertThatThrownBy(() -> config.target().keySource().read())
                .isInstanceOf(ConfigException.class)
                .hasMessage("--api-key-file: " + keyFile + " is empty");
    }

    private static String golden(String name) throws IOException {
        try (InputStream in = RunConfigTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
