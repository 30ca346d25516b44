package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.sun.net.httpserver.HttpServer;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Telemetry;
import dev.llmload.load.FixedSimulator;
import dev.llmload.note.Note;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.RunReport;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import dev.llmload.testsupport.HostLoad;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the server feels, scraped from the simulator's {@code /metrics} during real runs: a run
 * above capacity shows queueing and KV pressure that a run below capacity does not, and the
 * server's token counters agree with the client's.
 */
@Tag("loopback")
@Tag("timing")
class TelemetryLoopbackTest {

    @TempDir
    Path dir;

    /** A small engine: 4 sequences at a time and a KV cache that 4 long requests nearly fill. */
    private static SimServer smallEngine() {
        Map<String, Object> settings = new HashMap<>(Map.of("speedup", 4.0, "seed", 2, "maxModelLen", 1024));
        settings.put("batching", Map.of("maxNumSeqs", 4, "numBlocks", 160));
        return SimServer.start(SimConfig.load(null, settings));
    }

    private BenchmarkRun.Result run(SimServer sim, Load load, long requests) throws Exception {
        RunConfig base = SimulatorRuns.closedLoop(sim.url(), 1, requests, 512, 64, dir);
        Telemetry scrapeOften = Telemetry.of("auto", null, List.of(), null, Duration.ofMillis(100));
        RunConfig config = new RunConfig(
                base.target(),
                load,
                base.data(),
                null,
                base.bounds(),
                base.client(),
                scrapeOften,
                base.output().withDir(dir.resolve("run-" + System.nanoTime())),
                null,
                base.seed(),
                null);
        return SimulatorRuns.run(config);
    }

    @Test
    void aboveCapacityTheServerQueuesAndFillsItsCacheWhileBelowItDoesNot() throws Exception {
        TelemetrySummary below;
        TelemetrySummary above;
        RunReport aboveReport;
        try (SimServer sim = smallEngine()) {
            below = run(sim, Load.closed(1), 12).report().telemetry();
        }
        try (SimServer sim = smallEngine()) {
            aboveReport = run(sim, Load.open(40, Load.Arrival.CONSTANT, null, null), 40)
                    .report();
            above = aboveReport.telemetry();
        }
        assertThat(below.serverKind()).isEqualTo("vllm");
        // One at a time, a request waits only between its hand-over and the engine's next step, as
        // in vLLM; a scrape can land there where the engine's thread waits for a core (seen beside
        // two sha256sum). Above capacity the queue holds tens.
        assertThat(below.requestsWaiting().max()).isLessThanOrEqualTo(1.0);
        assertThat(below.kvCacheUsage().max()).isLessThan(0.5);
        assertThat(below.preemptions())
                .satisfiesAnyOf(
                        p -> assertThat(p).isNull(), p -> assertThat(p.delta()).isZero());

        assertThat(above.requestsWaiting().max()).isGreaterThan(1);
        assertThat(above.kvCacheUsage().max()).isGreaterThan(0.8);
        assertThat(above.serverQueueTimeMs().p99())
                .isGreaterThan(10 * Math.max(1.0, below.serverQueueTimeMs().p99()));
        // The client sees the same queue: TTFT of the last requests far above the first ones'.
        assertThat(aboveReport.notes()).extracting(Note::kind).contains("latency_drift");
    }

    /**
     * Requests that fail mid-stream still made the server count their prompt and the tokens it
     * sent: the client counts the same, so the counters agree and no token_count_mismatch is noted.
     */
    @Test
    void requestsFailingMidStreamDoNotMakeTheTokenCountsDisagree() throws Exception {
        Map<String, Object> settings = new HashMap<>(Map.of("speedup", 4.0, "seed", 5, "maxModelLen", 1024));
        settings.put("faults", List.of("stream-error-after:4@0.4"));
        try (SimServer sim = SimServer.start(SimConfig.load(null, settings))) {
            BenchmarkRun.Result result = run(sim, Load.closed(3), 20);
            List<RequestRecord> failed =
                    result.records().stream().filter(r -> !r.succeeded()).toList();
            assertThat(failed)
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.outputTokens()).isEqualTo(4));
            TelemetrySummary telemetry = result.report().telemetry();
            // Counted over the succeeded requests alone the client would be far below the server.
            long client = result.records().stream()
                    .mapToLong(RequestRecord::outputTokens)
                    .sum();
            long succeededOnly = result.records().stream()
                    .filter(RequestRecord::succeeded)
                    .mapToLong(RequestRecord::outputTokens)
                    .sum();
            assertThat(Math.abs(telemetry.generationTokens().delta() - client) / client)
                    .isLessThan(0.02);
            assertThat((telemetry.generationTokens().delta() - succeededOnly) / succeededOnly)
                    .isGreaterThan(0.02);
            assertThat(result.report().notes()).extracting(Note::kind).doesNotContain("token_count_mismatch");
        }
    }

    @Test
    void theServersTokenAndSuccessCountersMatchTheClients() throws Exception {
        try (SimServer sim = smallEngine()) {
            BenchmarkRun.Result result = run(sim, Load.closed(3), 15);
            TelemetrySummary telemetry = result.report().telemetry();
            List<RequestRecord> ok = result.journaledRecords().stream()
                    .filter(RequestRecord::succeeded)
                    .toList();
            assertThat(ok).hasSize(15);
            assertThat(telemetry.promptTokens().delta())
                    .isEqualTo(ok.stream().mapToLong(RequestRecord::inputTokens).sum());
            assertThat(telemetry.generationTokens().delta())
                    .isEqualTo(
                            ok.stream().mapToLong(RequestRecord::outputTokens).sum());
            assertThat(telemetry.requestsSucceeded().delta()).isEqualTo(15);
            // The simulator's account of its own delays comes along: one write-delay observation per token
            // event it wrote, which is one per event the client read (a busy engine step may carry two tokens).
            assertThat(telemetry.simulator().tokenWriteDelayMs().count())
                    .isEqualTo(ok.stream()
                            .mapToLong(r -> r.tokenEventCounts().length)
                            .sum());
            assertThat(telemetry.simulator().stepLagMaxMs()).isNotNull();
            List<String> notes =
                    result.report().notes().stream().map(Note::kind).toList();
            assertThat(notes).doesNotContain("token_count_mismatch");
            // A client that could not keep up (a busy host) reads its tokens late: its TTFT is then its
            // own lateness as much as the server's, and no agreement of the two can be judged.
            assumeFalse(
                    notes.contains("client_saturated"),
                    () -> "the client was saturated (" + HostLoad.describe()
                            + "); its TTFT is not compared with the server's: " + notes);
            assertThat(notes).doesNotContain("ttft_mismatch");
        }
    }

    /**
     * The window's baseline scrape is taken before the run's clock starts: a metrics endpoint that
     * takes 400 ms to answer (the simulator's own metrics, passed on late) delays no request of an
     * open loop whose first requests fall due within 200 ms of the start. Taken after the start,
     * as it once was, the scrape held back every request due before it returned.
     */
    @Test
    void aSlowMetricsEndpointDelaysNoRequestOfAnOpenLoop() throws Exception {
        long answerMs = 400;
        try (SimServer sim = FixedSimulator.start(5, 2, Map.of());
                HttpClient http = HttpClient.newHttpClient()) {
            HttpServer slowMetrics = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            slowMetrics.createContext("/metrics", exchange -> {
                try {
                    String text = http.send(
                                    HttpRequest.newBuilder(URI.create(sim.url() + "/metrics"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
                    Thread.sleep(answerMs);
                    byte[] body = text.getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                } finally {
                    exchange.close();
                }
            });
            slowMetrics.start();
            try {
                // Once before the run, so that the probe's 2 s are not spent starting the JDK's HTTP
                // client and server here, on a busy host.
                http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + slowMetrics.getAddress().getPort() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                RunConfig config = RunConfig.builder()
                        .url(sim.url())
                        .requestRate(50.0)
                        .arrival("constant")
                        .numRequests(10L)
                        .inputTokens("16")
                        .outputTokens("4")
                        .tokenizer("cl100k_base")
                        .seed(7)
                        .grace(Duration.ofSeconds(5))
                        .outputDir(dir.resolve("slow-metrics"))
                        .ioThreads(1)
                        .serverMetrics(
                                "http://127.0.0.1:" + slowMetrics.getAddress().getPort() + "/metrics")
                        .build();
                BenchmarkRun.Result result = SimulatorRuns.run(config);
                assertThat(result.report().telemetry())
                        .as("the slow endpoint was scraped")
                        .isNotNull();
                assertThat(result.report().telemetry().serverKind()).isEqualTo("vllm");
                List<RequestRecord> records = result.journaledRecords();
                assertThat(records)
                        .hasSize(10)
                        .allSatisfy(record -> assertThat((record.timings().sentNanos()
                                                - record.timings().intendedSendNanos())
                                        / 1e6)
                                .as("send lag of %s, ms", record.requestId())
                                .isLessThan(answerMs / 2.0));
            } finally {
                slowMetrics.stop(0);
            }
        }
    }
}
