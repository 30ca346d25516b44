package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that sends no usage, so llmload counts every answer's tokens itself, and answers one
 * request with a single event of a million characters without a space, which the tokenizer takes
 * seconds over: the other requests that finish meanwhile are journaled without waiting for that
 * count, and the long answer's line follows with its exact count.
 */
class SlowCountingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LONG_CHARS = 1_000_000;

    @TempDir
    Path dir;

    private static String event(String content) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + content + "\"}}]}\n\n";
    }

    @Test
    void requestsThatFinishWhileALongTextIsCountedAreJournaledFirst() throws Exception {
        AtomicInteger completions = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/models", exchange -> {
            byte[] body = "{\"data\":[{\"id\":\"counted\",\"owned_by\":\"test\"}]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            // The first completion is the test request; the second, the first of the run, gets the long text.
            boolean longOne = completions.incrementAndGet() == 2;
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                if (longOne) {
                    out.write(event("x".repeat(LONG_CHARS)).getBytes(StandardCharsets.UTF_8));
                } else {
                    out.write(event("Hi").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(30);
                    out.write(event(" there").getBytes(StandardCharsets.UTF_8));
                }
                out.write(("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                        + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            RunConfig config = RunConfig.builder().url(url).api("chat").load(Load.closed(2)).numRequests(40L)
                    .inputTokens("16").outputTokens("4").tokenizer("cl100k_base").seed(7)
                    .grace(Duration.ofSeconds(30)).outputDir(dir).ioThreads(1).build();
            BenchmarkRun.Result result = SimulatorRuns.run(config);
            assertThat(result.report().results().requests().succeeded()).isEqualTo(40);

            List<JsonNode> lines = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve("requests.jsonl"))) {
                lines.add(JSON.readTree(line));
            }
            assertThat(lines).hasSize(40);
            int longAt = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).get("output_tokens").asInt() > 1000) {
                    longAt = i;
                }
            }
            assertThat(longAt).as("the long answer is journaled").isNotNegative();
            JsonNode longLine = lines.get(longAt);
            assertThat(longLine.get("output_tokens").asInt())
                    .isEqualTo(Tokenizers.defaultTokenizer().count("x".repeat(LONG_CHARS)));
            assertThat(longLine.get("output_tokens_source").asText()).isEqualTo("local_tokenizer");

            // Every request before it in the journal that ended after it was written while it was counted.
            double longEnd = finishedAtMs(longLine);
            long writtenMeanwhile = lines.subList(0, longAt).stream().filter(l -> finishedAtMs(l) > longEnd).count();
            assertThat(writtenMeanwhile).as("requests that ended after the long one yet were journaled before it")
                    .isPositive();
        } finally {
            server.stop(0);
        }
    }

    /** When the request ended, in milliseconds from the run's start. */
    private static double finishedAtMs(JsonNode line) {
        return line.get("sent_ms").asDouble() + line.get("end_ms").asDouble();
    }
}
