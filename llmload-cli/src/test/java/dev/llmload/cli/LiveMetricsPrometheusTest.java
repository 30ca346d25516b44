package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.RequiredTool;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --live-metrics} scraped by a real Prometheus server (Debian's {@code prometheus}, started
 * here on 127.0.0.1 with a 1 s scrape interval): a run of segment 1 of 2 against the simulator
 * on loopback, then Prometheus's HTTP API asked for the counters it stored, which must be the same
 * run's report.json (the endpoint keeps the final values up until a scrape has fetched them).
 * Skipped with its reason where the binary is absent; under CI it must be there.
 */
@Tag("process")
@Tag("loopback")
class LiveMetricsPrometheusTest {

    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void prometheusStoresTheRunsCountersAsTheReportHasThem() throws Exception {
        RequiredTool.require(
                Files.isExecutable(PROMETHEUS), "prometheus not installed (apt-get install prometheus); test skipped");
        int metricsPort = freePort();
        int webPort = freePort();
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: llmload
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(metricsPort));
        Process prometheus = new ProcessBuilder(
                        PROMETHEUS.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + dir.resolve("tsdb"),
                        "--web.listen-address=127.0.0.1:" + webPort)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        try (SimServer sim = SimServer.start(SimConfig.load(null, Map.of()));
                HttpClient http = HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .build()) {
            URI api = URI.create("http://127.0.0.1:" + webPort);
            awaitReady(http, api, prometheus);

            Path run = dir.resolve("run");
            Path log = dir.resolve("llmload.log");
            Process llmload = CliProcess.start(
                    log,
                    "run",
                    "--duration",
                    "5s",
                    "--concurrency",
                    "4",
                    "--input-tokens",
                    "64",
                    "--output-tokens",
                    "32",
                    "--url",
                    sim.url(),
                    "--segment",
                    "1/2",
                    "--output-dir",
                    run.toString(),
                    "--live-metrics",
                    "127.0.0.1:" + metricsPort);
            if (!llmload.waitFor(180, TimeUnit.SECONDS)) {
                llmload.destroyForcibly();
                throw new AssertionError("llmload did not end in 180 s:\n" + Files.readString(log));
            }
            String output = Files.readString(log);
            assertThat(llmload.exitValue()).as(output).isZero();
            assertThat(output)
                    .contains("Live metrics: http://127.0.0.1:" + metricsPort + "/metrics")
                    // Not a terminal: no live view.
                    .doesNotContain("llmload live");

            JsonNode results =
                    JSON.readTree(run.resolve("report.json").toFile()).path("results");
            long succeeded = results.path("requests").path("succeeded").asLong();
            assertThat(succeeded).isPositive();
            // Counters only grow, so their largest value stored is the last one scraped.
            assertThat(
                            query(
                                    http,
                                    api,
                                    "max_over_time(llmload_requests_total{job=\"llmload\",segment=\"1\",outcome=\"success\"}[10m])"))
                    .isEqualTo(succeeded);
            JsonNode outputTokens = results.path("output_tokens");
            assertThat(query(http, api, "max_over_time(llmload_output_tokens_total{segment=\"1\"}[10m])"))
                    .isEqualTo(Math.round(outputTokens.path("mean").asDouble()
                            * outputTokens.path("count").asLong()));
            assertThat(query(http, api, "max_over_time(llmload_time_to_first_token_seconds_count{segment=\"1\"}[10m])"))
                    .isEqualTo(results.path("ttft_ms").path("count").asLong());
        } finally {
            prometheus.destroy();
            if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
    }

    /** Waits for Prometheus's /-/ready, at most 60 s. */
    private void awaitReady(HttpClient http, URI api, Process prometheus) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!prometheus.isAlive()) {
                throw new AssertionError("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            try {
                if (http.send(
                                        HttpRequest.newBuilder(api.resolve("/-/ready"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            Thread.sleep(200);
        }
        throw new AssertionError("prometheus not ready in 60 s: " + Files.readString(dir.resolve("prometheus.log")));
    }

    /** The one value an instant query gives, as a whole number; fails when it gives none or several. */
    private static long query(HttpClient http, URI api, String promql) throws Exception {
        URI uri = api.resolve("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode result = JSON.readTree(response.body()).path("data").path("result");
        assertThat(result.size()).as("%s gave %s", promql, response.body()).isEqualTo(1);
        return Math.round(Double.parseDouble(result.get(0).path("value").get(1).asText()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
