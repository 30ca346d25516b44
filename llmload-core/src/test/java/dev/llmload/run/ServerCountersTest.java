package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Telemetry;
import dev.llmload.metrics.RunResults;
import dev.llmload.record.Journal;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import dev.llmload.testsupport.HostLoad;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batching simulator's {@code /metrics} during and after a run: the gauges move while the load
 * runs, and the counters grow by exactly what the client saw succeed, as read three ways: the
 * report's {@code telemetry} section (the client's own scrapes), the journal, and a scrape of
 * {@code /metrics} by this test before and after.
 */
@Tag("loopback")
// The client's scrapes run in Linux's idle scheduling class (they give way to the load), so
// whether they see the server during the run depends on cores left over: a neighbour's load can
// starve them for the whole run.
@Tag("timing")
class ServerCountersTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int REQUESTS = 60;

    @TempDir
    Path dir;

    @Test
    void countersAddUpToWhatTheClientSawAndGaugesMoveDuringTheRun() throws Exception {
        // Batching engine at 5x speed; a share of requests is refused with a 500 so that the
        // counters must leave failures out.
        SimConfig simConfig = SimConfig.load(null, Map.of("speedup", 5, "seed", 3, "faults", List.of("http-500@0.2")));
        try (SimServer sim = SimServer.start(simConfig)) {
            Map<String, Double> before = scrape(sim);
            RunConfig base = SimulatorRuns.closedLoop(sim.url(), 12, REQUESTS, 200, 48, dir);
            RunConfig config = new RunConfig(
                    base.target(),
                    base.load(),
                    base.data(),
                    base.sessions(),
                    base.bounds(),
                    base.client(),
                    Telemetry.of("auto", null, List.of(), null, Duration.ofMillis(100)),
                    base.output(),
                    base.slo(),
                    base.seed(),
                    base.scenario());
            BenchmarkRun.Result result = SimulatorRuns.run(config);
            Map<String, Double> after = scrape(sim);

            long successes = 0;
            long inputTokens = 0;
            long outputTokens = 0;
            for (String line : Files.readAllLines(dir.resolve(Journal.FILE_NAME))) {
                JsonNode entry = JSON.readTree(line);
                if (entry.get("outcome").asText().equals("success")) {
                    successes++;
                    inputTokens += entry.get("input_tokens").asLong();
                    outputTokens += entry.get("output_tokens").asLong();
                    assertThat(entry.get("input_tokens_source").asText()).isEqualTo("server");
                    assertThat(entry.get("output_tokens_source").asText()).isEqualTo("server");
                } else {
                    assertThat(entry.get("outcome").asText()).isEqualTo("http_5xx");
                }
            }
            RunResults r = result.report().results();
            assertThat(r.requests().succeeded()).isEqualTo(successes);
            assertThat(successes).isBetween(30L, REQUESTS - 1L); // the fault hit some, not all
            assertThat(outputTokens).isEqualTo(successes * 48);

            // This test's own scrapes.
            assertThat(delta(before, after, "vllm:prompt_tokens_total")).isEqualTo(inputTokens);
            assertThat(delta(before, after, "vllm:generation_tokens_total")).isEqualTo(outputTokens);
            assertThat(delta(before, after, "vllm:request_success_total")).isEqualTo(successes);

            // The report's telemetry section, from the client's scrapes during the run.
            TelemetrySummary telemetry = result.report().telemetry();
            assertThat(telemetry.serverKind()).isEqualTo("vllm");
            assertThat(telemetry.promptTokens().delta()).isEqualTo(inputTokens);
            assertThat(telemetry.generationTokens().delta()).isEqualTo(outputTokens);
            assertThat(telemetry.requestsSucceeded().delta()).isEqualTo(successes);
            // Idle again afterwards.
            assertThat(after.get("vllm:num_requests_running")).isZero();
            assertThat(after.get("vllm:kv_cache_usage_perc")).isZero();
            // The gauges need a scrape inside the run while requests run, and the run's scrapes are in
            // the idle scheduling class: where other programs keep the cores busy, they wait for a
            // core the load leaves, so none may land inside the run, or one lands where the engine
            // has nothing running (beside two sha256sum: one scrape inside the half-second run,
            // which read 12, 10, 12 and 1 running requests, and once 0). As TelemetryCollectorTest's
            // cadence, judged only where others keep less than half a thread per core runnable.
            double othersPerCore = HostLoad.othersPerCore();
            assumeTrue(
                    telemetry.serverScrapes() > 2 && othersPerCore <= 0.5,
                    () -> "the gauges not judged: %d scrapes, other processes kept %.1f threads per core runnable (%s);"
                                    .formatted(telemetry.serverScrapes(), othersPerCore, HostLoad.describe())
                            + " the counters above were");
            assertThat(telemetry.requestsRunning().max()).isGreaterThan(0.0);
            assertThat(telemetry.kvCacheUsage().max()).isGreaterThan(0.0);
        }
    }

    private static long delta(Map<String, Double> before, Map<String, Double> after, String name) {
        return Math.round(after.getOrDefault(name, 0.0) - before.getOrDefault(name, 0.0));
    }

    /** Each sample of {@code /metrics}, summed over its labels, by metric name. */
    private static Map<String, Double> scrape(SimServer sim) throws Exception {
        String text = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(sim.url() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        Map<String, Double> sums = new HashMap<>();
        for (String line : text.lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int nameEnd = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
            double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            sums.merge(line.substring(0, nameEnd), value, Double::sum);
        }
        return sums;
    }
}
