package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.protocol.ApiKind;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same seeded workload through the simulator's chat, completions and each native streaming
 * dialect: the engine behind them is the same, so every dialect must give the same token counts,
 * and TTFT and ITL p50 within 5% of chat's, and agree request by request with the simulator's
 * ground-truth log; embeddings and rerank run with their batch size. A dialect the simulator does
 * not serve (its path answers 404 to the test request) is skipped with that reason.
 */
@Tag("loopback")
@Tag("timing")
class DialectParityTest {

    private static final double TTFT_MS = 40;
    private static final double ITL_MS = 25;
    private static final int REQUESTS = 24;
    private static final int OUTPUT_TOKENS = 12;
    /**
     * The ground-truth checks compare clock order and token counts, not sizes of latencies, so they
     * hold at any latency; a short one keeps their nine runs short.
     */
    private static final double TRUTH_TTFT_MS = 10;

    private static final double TRUTH_ITL_MS = 5;
    private static final List<ApiKind> DIALECTS = List.of(
            ApiKind.COMPLETIONS,
            ApiKind.TGI,
            ApiKind.TRITON,
            ApiKind.OLLAMA,
            ApiKind.OLLAMA_CHAT,
            ApiKind.LLAMACPP,
            ApiKind.SGLANG,
            ApiKind.ANTHROPIC,
            ApiKind.RESPONSES);

    @TempDir
    Path dir;

    private static RunConfig config(String url, ApiKind api, Path out) {
        return builder(url, api, out).build();
    }

    private static RunConfig.Builder builder(String url, ApiKind api, Path out) {
        return RunConfig.builder()
                .url(url)
                .api(api.cliName())
                .load(Load.closed(8))
                .numRequests((long) REQUESTS)
                .inputTokens("32")
                .outputTokens(String.valueOf(OUTPUT_TOKENS))
                .tokenizer("cl100k_base")
                .seed(7)
                .grace(Duration.ofSeconds(5))
                .outputDir(out)
                .ioThreads(2);
    }

    @Test
    void everyDialectOfTheSimulatorGivesTheSameCountsAndTimings() throws Exception {
        try (SimServer sim = FixedSimulator.start(TTFT_MS, ITL_MS, Map.of())) {
            // The first run in this JVM pays for compiling the client's and the simulator's code (its
            // TTFT p50 came out 2 ms above the dialects' after it), so the reference is a second run.
            SimulatorRuns.run(config(sim.url(), ApiKind.CHAT, dir.resolve("chat-first")));
            BenchmarkRun.Result chat = SimulatorRuns.run(config(sim.url(), ApiKind.CHAT, dir.resolve("chat")));
            assertThat(chat.records()).allMatch(RequestRecord::succeeded);
            double ttft = chat.report().results().ttftMs().p50();
            double itl = chat.report().results().itlMs().p50();
            long outputTokens = chat.records().stream()
                    .mapToLong(RequestRecord::outputTokens)
                    .sum();
            List<String> unserved = new ArrayList<>();
            List<String> timings = new ArrayList<>();
            for (ApiKind api : DIALECTS) {
                BenchmarkRun.Result result;
                try {
                    result = SimulatorRuns.run(config(sim.url(), api, dir.resolve(api.cliName())));
                } catch (RunException e) {
                    if (e.getMessage().contains("HTTP 404")) {
                        unserved.add(api.cliName());
                        continue;
                    }
                    throw e;
                }
                assertThat(result.records()).as(api.cliName()).allMatch(RequestRecord::succeeded);
                assertThat(result.records().stream()
                                .mapToLong(RequestRecord::outputTokens)
                                .sum())
                        .as(api.cliName())
                        .isEqualTo(outputTokens);
                if (!farApart(api.cliName(), result, ttft, itl).isEmpty()) {
                    // Like chat's first run, a dialect's first run pays for compiling its own encoder
                    // and parser on both sides, and a p50 of 24 requests in three waves moves by 1-2 ms
                    // of its 41-43 ms from run to run, chat's as much as any (5% is 2 ms): a dialect
                    // that strays is measured once more beside a fresh run of chat, and judged against
                    // that. One that is slower by design strays again.
                    BenchmarkRun.Result chatAgain =
                            SimulatorRuns.run(config(sim.url(), ApiKind.CHAT, dir.resolve("chat-" + api.cliName())));
                    result = SimulatorRuns.run(config(sim.url(), api, dir.resolve(api.cliName() + "-again")));
                    assertThat(result.records()).as(api.cliName()).allMatch(RequestRecord::succeeded);
                    timings.addAll(farApart(
                            api.cliName(),
                            result,
                            chatAgain.report().results().ttftMs().p50(),
                            chatAgain.report().results().itlMs().p50()));
                }
            }
            // Both sides share two busy cores with whatever else runs: a 5% bound on milliseconds is
            // judged only where the run queue fits the cores, and otherwise skipped with the load.
            if (!timings.isEmpty() && HostLoad.factor() > 1) {
                Assumptions.abort("too busy to judge 5% (" + HostLoad.describe() + "): " + timings);
            }
            assertThat(timings).as("p50s more than 5% from chat's").isEmpty();
            Assumptions.assumeTrue(unserved.isEmpty(), () -> "the simulator does not serve " + unserved);
        }
    }

    /** The run's TTFT and ITL p50s that lie more than 5% from chat's, named with their dialect. */
    private static List<String> farApart(String api, BenchmarkRun.Result result, double chatTtftMs, double chatItlMs) {
        List<String> strayed = new ArrayList<>();
        farApart(strayed, api + " TTFT p50", result.report().results().ttftMs().p50(), chatTtftMs);
        farApart(strayed, api + " ITL p50", result.report().results().itlMs().p50(), chatItlMs);
        return strayed;
    }

    /** Notes {@code what} when {@code value} lies more than 5% from {@code reference}. */
    private static void farApart(List<String> timings, String what, double value, double reference) {
        if (Math.abs(value - reference) > 0.05 * reference) {
            timings.add(String.format(java.util.Locale.ROOT, "%s %.3f ms against chat's %.3f", what, value, reference));
        }
    }

    /**
     * Each dialect's requests against the simulator's own log of when it wrote each token (matched
     * by {@code x-request-id}): the client's TTFT is never before the server's first token, and the
     * client counts the tokens the server wrote.
     */
    @Test
    void everyDialectAgreesWithTheSimulatorsGroundTruth() throws Exception {
        Path truthFile = dir.resolve("ground-truth.jsonl");
        Map<ApiKind, BenchmarkRun.Result> results = new EnumMap<>(ApiKind.class);
        List<String> unserved = new ArrayList<>();
        try (SimServer sim =
                FixedSimulator.start(TRUTH_TTFT_MS, TRUTH_ITL_MS, Map.of("groundTruth", truthFile.toString()))) {
            for (ApiKind api : DIALECTS) {
                try {
                    results.put(api, SimulatorRuns.run(config(sim.url(), api, dir.resolve("truth-" + api.cliName()))));
                } catch (RunException e) {
                    if (!e.getMessage().contains("HTTP 404")) {
                        throw e;
                    }
                    unserved.add(api.cliName());
                }
            }
        } // closing the simulator flushes its log
        Map<String, JsonNode> truth = new HashMap<>();
        if (Files.exists(truthFile)) {
            var json = new ObjectMapper();
            for (String line : Files.readAllLines(truthFile)) {
                var node = json.readTree(line);
                truth.put(node.get("request_id").asText(), node);
            }
        }
        for (Map.Entry<ApiKind, BenchmarkRun.Result> entry : results.entrySet()) {
            String api = entry.getKey().cliName();
            for (RequestRecord record : entry.getValue().records()) {
                var theirs = truth.get(record.requestId());
                assertThat(theirs)
                        .as("%s: the simulator's record of %s", api, record.requestId())
                        .isNotNull();
                var serverTimes = theirs.get("token_times_ms");
                assertThat(record.outputTokens()).as("%s output tokens", api).isEqualTo(serverTimes.size());
                double clientTtft =
                        (record.timings().firstTokenNanos() - record.timings().sentNanos()) / 1e6;
                assertThat(clientTtft)
                        .as("%s TTFT is never before the server's first token", api)
                        .isGreaterThanOrEqualTo(serverTimes.get(0).asDouble() - 0.001);
            }
        }
        Assumptions.assumeTrue(unserved.isEmpty(), () -> "the simulator does not serve " + unserved);
    }

    /** Embeddings and rerank are whole answers: a latency and the server's input tokens, batch by batch. */
    @Test
    void embeddingsAndRerankRunAgainstTheSimulatorWithTheirBatchSize() throws Exception {
        try (SimServer sim = FixedSimulator.start(TTFT_MS, ITL_MS, Map.of())) {
            for (ApiKind api : List.of(ApiKind.EMBEDDINGS, ApiKind.RERANK)) {
                RunConfig config = builder(sim.url(), api, dir.resolve(api.cliName())).outputTokens("1").stream(false)
                        .batchSize(4)
                        .build();
                BenchmarkRun.Result result = SimulatorRuns.run(config);
                assertThat(result.records()).as(api.cliName()).allSatisfy(r -> {
                    assertThat(r.succeeded()).isTrue();
                    assertThat(r.streamed()).isFalse();
                    assertThat(r.inputTokensFromServer()).isTrue();
                    assertThat(r.inputTokens())
                            .as("four inputs of about 32 tokens")
                            .isGreaterThan(4 * 20);
                });
                assertThat(result.report().results().inputTokenThroughput())
                        .as(api.cliName())
                        .isPositive();
                assertThat(result.report().results().ttftMs().count()).isZero();
            }
        }
    }
}
