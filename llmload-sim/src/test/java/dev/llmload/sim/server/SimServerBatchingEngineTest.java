package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.sim.engine.batching.BatchingEngine;
import dev.llmload.sim.engine.batching.StepTimeProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The server in front of the batching engine, over loopback: configuration, streaming, /metrics. */
@Tag("loopback")
@Tag("timing")
class SimServerBatchingEngineTest {

    @Test
    void theBatchingEngineIsTheDefaultAndItsSectionReadsOverItsDefaults() {
        SimConfig config = SimConfig.load(
                null,
                Map.of(
                        "maxModelLen",
                        1024,
                        "speedup",
                        5,
                        "batching",
                        Map.of("numBlocks", 128, "profile", "h100-llama3-8b")));
        assertThat(config.engine()).isEqualTo(SimConfig.EngineKind.BATCHING);
        assertThat(config.batching().numBlocks()).isEqualTo(128);
        assertThat(config.batching().profile()).isEqualTo(StepTimeProfile.H100_LLAMA3_8B);
        assertThat(config.batching().maxModelLen()).isEqualTo(1024);
        assertThat(config.batching().speedup()).isEqualTo(5);
        assertThat(config.batching().maxNumSeqs()).isEqualTo(256);
        assertThat(SimConfig.load(null, Map.of("engine", "fixed")).engine()).isEqualTo(SimConfig.EngineKind.FIXED);
        assertThatThrownBy(() -> SimConfig.load(null, Map.of("batching", Map.of("speedup", 3))))
                .hasMessageContaining("top level");
    }

    @Test
    void closingTheServerMidStreamEndsTheStreamAsAbortedAndThrowsNowhere() throws Exception {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
            // speedup 0.01: steps of about half a second, so the stream is still running at the close
            SimServer server = SimServer.start(SimConfig.load(null, Map.of("speedup", 0.01)));
            SimClient client = new SimClient(server);
            Future<SimClient.Streamed> stream = pool.submit(
                    () -> client.stream("/v1/completions", SimClient.completion("a question", 50, true, false)));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (server.engine().snapshot().running() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            server.close();
            client.close();

            SimClient.Streamed s = stream.get();
            assertThat(s.complete()).isTrue();
            assertThat(s.events().getLast().data()).isEqualTo("[DONE]");
            assertThat(s.events().get(s.events().size() - 2).data()).contains("\"finish_reason\":\"abort\"");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        assertThat(uncaught).isEmpty();
    }

    @Test
    void streamsThroughTheBatchingEngineAndExposesItsStateOnMetrics() throws Exception {
        // A cache of 34 blocks (544 tokens) cannot hold three ~100-token prompts growing by 100 tokens
        // each: six requests released together must preempt, and the metrics have to say so.
        SimConfig config =
                SimConfig.load(null, Map.of("maxModelLen", 512, "speedup", 10, "batching", Map.of("numBlocks", 34)));
        String words = " word".repeat(100);
        try (SimServer server = SimServer.start(config);
                SimClient client = new SimClient(server);
                ExecutorService pool = Executors.newFixedThreadPool(6)) {
            assertThat(server.engine()).isInstanceOf(BatchingEngine.class);
            // The same prompt twice in a row: the second finds the first one's blocks in the prefix cache.
            for (int i = 0; i < 2; i++) {
                assertThat(client.stream("/v1/completions", SimClient.completion("again" + words, 100, true, true))
                                .status())
                        .isEqualTo(200);
            }

            server.engine().pause(Duration.ofMillis(1500)); // the six queue up and start together
            List<Future<SimClient.Streamed>> streams = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String body = SimClient.completion("topic" + i + words, 100, true, true);
                streams.add(pool.submit(() -> client.stream("/v1/completions", body)));
            }
            for (Future<SimClient.Streamed> f : streams) {
                SimClient.Streamed s = f.get();
                assertThat(s.status()).isEqualTo(200);
                assertThat(s.events().getLast().data()).isEqualTo("[DONE]");
                assertThat(s.events().stream().map(SimClient.Event::data))
                        .anySatisfy(d -> assertThat(d).contains("\"completion_tokens\":100"));
            }

            String metrics = client.get("/metrics").body();
            assertThat(metric(metrics, "vllm:num_preemptions_total")).isGreaterThan(0);
            assertThat(metric(metrics, "vllm:generation_tokens_total")).isEqualTo(8 * 100);
            assertThat(metric(metrics, "vllm:prefix_cache_hits_total")).isGreaterThan(0);
            assertThat(metric(metrics, "vllm:prefix_cache_queries_total"))
                    .isGreaterThan(metric(metrics, "vllm:prefix_cache_hits_total"));
            assertThat(metric(metrics, "vllm:num_requests_running")).isZero();
            assertThat(metric(metrics, "vllm:kv_cache_usage_perc")).isZero();
            assertThat(metrics).contains("block_size=\"16\"").contains("num_gpu_blocks=\"34\"");
        }
    }

    private static double metric(String exposition, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*} (\\S+)$")
                .matcher(exposition);
        assertThat(m.find()).as(name).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
