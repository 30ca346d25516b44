package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.config.RunConfig;
import dev.llmload.live.LiveMetrics;
import dev.llmload.live.LiveSnapshot;
import dev.llmload.live.MetricsEndpoint;
import dev.llmload.load.FixedSimulator;
import dev.llmload.metrics.RunResults;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.RequiredTool;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live figures of a real run against the simulator, held to the same run's report (which the
 * journal makes) and to the simulator's fixed timing: the counts, the output tokens, the
 * histograms' counts and sums, the window's percentiles of a run shorter than the window; and
 * {@code /metrics} over HTTP, labelled by segment and accepted by {@code promtool check metrics}.
 */
@Tag("loopback")
@Tag("process")
class LiveMetricsLoopbackTest {

    private static final int REQUESTS = 40;
    private static final int OUTPUT_TOKENS = 16;

    @TempDir
    Path dir;

    @Test
    void liveFiguresAgreeWithTheReportAndTheEndpointServesThem() throws Exception {
        // TTFT 20 ms, then a token every 5 ms: E2E 95 ms at the least.
        try (SimServer sim = FixedSimulator.start(20, 5, Map.of())) {
            RunConfig config = SimulatorRuns.closedLoop(sim.url(), 4, REQUESTS, 16, OUTPUT_TOKENS, dir.resolve("run"));
            BenchmarkRun run = new BenchmarkRun(config, sim.url(), null, "llmload run (test)", "test", r -> {});
            LiveMetrics live = new LiveMetrics();
            List<LiveSnapshot> heard = new CopyOnWriteArrayList<>();
            live.addListener(heard::add);
            run.watch(live);
            BenchmarkRun.Result result;
            String body;
            try (MetricsEndpoint endpoint = MetricsEndpoint.open(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), live::latest, 2);
                    HttpClient http = HttpClient.newHttpClient()) {
                result = run.execute();
                URI base = URI.create("http://127.0.0.1:" + endpoint.address().getPort());
                HttpResponse<String> metrics = http.send(
                        HttpRequest.newBuilder(base.resolve("/metrics")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(metrics.statusCode()).isEqualTo(200);
                assertThat(metrics.headers().firstValue("Content-Type"))
                        .hasValue("text/plain; version=0.0.4; charset=utf-8");
                body = metrics.body();
                assertThat(http.send(
                                        HttpRequest.newBuilder(base.resolve("/other"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode())
                        .isEqualTo(404);
            }
            RunResults results = result.report().results();
            assertThat(results.requests().succeeded()).isEqualTo(REQUESTS);

            LiveSnapshot last = live.latest();
            assertThat(last.ended()).isTrue();
            assertThat(heard.getLast()).isSameAs(last);
            assertThat(last.succeeded()).isEqualTo(results.requests().succeeded());
            assertThat(last.failedTotal()).isEqualTo(results.requests().failed());
            assertThat(last.inFlight()).isZero();
            assertThat(last.outputTokens()).isEqualTo((long) REQUESTS * OUTPUT_TOKENS);
            assertThat(last.ttft().count()).isEqualTo(results.ttftMs().count());
            assertThat(last.itl().count()).isEqualTo(results.itlMs().count());
            assertThat(last.e2e().count()).isEqualTo(results.e2eLatencyMs().count());
            // Sums of whole nanoseconds against the report's exact means.
            assertThat(last.ttft().sumSeconds() * 1000 / last.ttft().count())
                    .isCloseTo(results.ttftMs().mean(), within(1e-6));
            assertThat(last.e2e().sumSeconds() * 1000 / last.e2e().count())
                    .isCloseTo(results.e2eLatencyMs().mean(), within(1e-6));
            // No E2E can beat the simulator's 95 ms: nothing at or below the 50 ms bound.
            assertThat(cumulativeAt(last.e2e(), 0.05)).isZero();
            assertThat(cumulativeAt(last.ttft(), 0.01)).isZero();

            // The run is far shorter than the window: its last window holds every request, exactly.
            assertThat(last.elapsedNanos()).isLessThan(TimeUnit.SECONDS.toNanos(LiveMetrics.WINDOW_SECONDS));
            assertThat(last.window().ttft().count()).isEqualTo(results.ttftMs().count());
            assertThat(last.window().ttft().p50Ms()).isEqualTo(results.ttftMs().p50());
            assertThat(last.window().ttft().p99Ms()).isEqualTo(results.ttftMs().p99());
            assertThat(last.window().e2e().p50Ms())
                    .isEqualTo(results.e2eLatencyMs().p50());
            assertThat(last.window().itl().p50Ms()).isEqualTo(results.itlMs().p50());
            assertThat(last.window().offeredPerSecond()).isNaN();
            assertThat(last.server()).isNotNull();

            assertThat(body)
                    .contains("llmload_requests_total{segment=\"2\",outcome=\"success\"} " + REQUESTS + "\n")
                    .contains("llmload_output_tokens_total{segment=\"2\"} " + REQUESTS * OUTPUT_TOKENS + "\n")
                    .contains("llmload_time_to_first_token_seconds_count{segment=\"2\"} "
                            + results.ttftMs().count() + "\n")
                    .contains("llmload_time_to_first_token_seconds_bucket{segment=\"2\",le=\"+Inf\"} "
                            + results.ttftMs().count() + "\n")
                    .doesNotContain("llmload_scheduled_requests_total");
            promtoolAccepts(body);
        }
    }

    private static long cumulativeAt(LiveSnapshot.Histogram histogram, double boundSeconds) {
        double[] bounds = histogram.upperBoundsSeconds();
        for (int i = 0; i < bounds.length; i++) {
            if (bounds[i] == boundSeconds) {
                return histogram.cumulativeCounts()[i];
            }
        }
        throw new AssertionError("no bucket bound " + boundSeconds);
    }

    /** {@code promtool check metrics}: the body parses and lints clean (exit 0). */
    private static void promtoolAccepts(String body) throws Exception {
        Path promtool = Path.of("/usr/bin/promtool");
        RequiredTool.require(
                Files.isExecutable(promtool), "promtool not installed (apt-get install prometheus); check skipped");
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics")
                .redirectErrorStream(true)
                .start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(body.getBytes(StandardCharsets.UTF_8));
        }
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("promtool check metrics said: %s", said).isZero();
    }
}
