package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.llmload.analysis.NoteDetector;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.DialectFixtures;
import dev.llmload.record.Journal;
import dev.llmload.record.RequestRecord;
import dev.llmload.testsupport.HostLoad;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole run in a native dialect against a loopback server that answers as Ollama's
 * {@code /api/chat} documents: requests go to the server's root, the server's own durations reach
 * every record and the journal, and the report sets them beside the client's. The fixture's
 * server claims a prefill of 344 ms for an answer whose first line the client reads after about
 * 20 ms, so the report must say that server and client disagree.
 */
@Tag("loopback")
class NativeRunTest {

    private static final int REQUESTS = 6;

    @TempDir
    Path dir;

    @Test
    void anOllamaChatRunRecordsTheServersTimingsAndFlagsTheirDisagreement() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/models", exchange -> {
            byte[] body = "{\"object\":\"list\",\"data\":[{\"id\":\"qwen3\",\"owned_by\":\"library\"}]}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/api/chat", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                Thread.sleep(20);
                for (String line : DialectFixtures.OLLAMA_CHAT.messages()) {
                    out.write(line.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(5);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
            RunConfig config = RunConfig.builder()
                    .url(url)
                    .api(ApiKind.OLLAMA_CHAT.cliName())
                    .load(Load.closed(2))
                    .numRequests((long) REQUESTS)
                    .inputTokens("16")
                    .outputTokens("2")
                    .tokenizer("cl100k_base")
                    .seed(7)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir.resolve("run"))
                    .ioThreads(1)
                    .build();
            BenchmarkRun.Result result =
                    new BenchmarkRun(config, url, null, "llmload run (test)", "test", r -> {}).execute();

            assertThat(result.records()).hasSize(REQUESTS).allMatch(RequestRecord::succeeded);
            assertThat(result.report().service().api()).isEqualTo("ollama-chat");
            assertThat(result.report().service().url()).doesNotEndWith("/v1");
            assertThat(result.records()).allSatisfy(r -> {
                assertThat(r.inputTokens()).isEqualTo(26);
                assertThat(r.outputTokens()).isEqualTo(2);
                assertThat(r.serverTimings().prefillMs()).isEqualTo(342.546);
            });
            var view = result.report().results().serverView();
            assertThat(view.requests()).isEqualTo(REQUESTS);
            // load 1.335 + prefill 342.546, as the journal keeps them (to the microsecond).
            assertThat(view.serverFirstTokenMs().p50()).isCloseTo(343.881, org.assertj.core.data.Offset.offset(1e-9));
            // The server answers after about 20 ms but reports 343.9: the client's TTFT is far below that
            // unless the host's load makes the client (or this test's server) hundreds of milliseconds late.
            double clientTtftMs = result.report().results().ttftMs().p50();
            assumeTrue(
                    clientTtftMs < 343.881 / 2,
                    () -> "the client measured a TTFT p50 of " + clientTtftMs + " ms (" + HostLoad.describe()
                            + "), too near the server's 343.9 ms to tell them apart");
            assertThat(result.report().notes()).anySatisfy(n -> {
                assertThat(n.kind()).isEqualTo(NoteDetector.SERVER_CLIENT_DISAGREE);
                assertThat(n.message())
                        .endsWith("the server reports more time than the client measured, so its "
                                + "timings do not mean what they seem");
            });
            assertThat(Files.readString(result.directory().resolve(Journal.FILE_NAME)))
                    .contains("\"server_timings\":{\"load_ms\":1.335,\"prefill_ms\":342.546");
        } finally {
            server.stop(0);
        }
    }
}
