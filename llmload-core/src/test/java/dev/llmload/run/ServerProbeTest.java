package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.llmload.http.Endpoint;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What the probe learns from each engine's metadata endpoints, served as those engines answer. */
@Tag("loopback")
class ServerProbeTest {

    /** A loopback server answering GETs with fixed JSON bodies; other paths get 404. */
    private static HttpServer serve(Map<String, String> bodies) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = bodies.get(exchange.getRequestURI().getPath());
            byte[] bytes = (body == null ? "not found" : body).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static ServerProbe.ServerInfo probe(HttpServer server) throws Exception {
        return ServerProbe.probe(
                Endpoint.openAiBase("http://127.0.0.1:" + server.getAddress().getPort()), null, false);
    }

    @Test
    void vllmSaysItAllOnModelsAndVersion() throws Exception {
        HttpServer server = serve(Map.of(
                "/v1/models",
                        "{\"data\":[{\"id\":\"meta-llama/Llama-3.1-8B\",\"owned_by\":\"vllm\",\"max_model_len\":131072}]}",
                "/version", "{\"version\":\"0.11.2\"}"));
        try {
            assertThat(probe(server))
                    .isEqualTo(new ServerProbe.ServerInfo("meta-llama/Llama-3.1-8B", 131072, "vllm", "0.11.2"));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void tgiIsKnownByItsInfoEndpoint() throws Exception {
        HttpServer server = serve(Map.of(
                "/v1/models", "{\"data\":[{\"id\":\"tgi\",\"owned_by\":\"system\"}]}",
                "/info", "{\"model_id\":\"mistralai/Mistral-7B\",\"version\":\"3.3.7\",\"max_total_tokens\":8192}"));
        try {
            assertThat(probe(server)).isEqualTo(new ServerProbe.ServerInfo("tgi", 8192, "tgi", "3.3.7"));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void llamaCppIsKnownByItsProps() throws Exception {
        HttpServer server = serve(Map.of(
                "/v1/models", "{\"data\":[{\"id\":\"qwen.gguf\",\"owned_by\":\"someone\"}]}",
                "/props", "{\"default_generation_settings\":{\"n_ctx\":4096},\"total_slots\":4}"));
        try {
            assertThat(probe(server)).isEqualTo(new ServerProbe.ServerInfo("qwen.gguf", 4096, "llama.cpp", null));
        } finally {
            server.stop(0);
        }
    }

    /**
     * What the probe takes from answers of odd shapes: llama.cpp's context length under the model's
     * {@code meta}, a version given as a number, a fractional length cut to a whole one; an HTML
     * page, a JSON object cut short and one nested past the parser's limit read as nothing.
     */
    @Test
    void answersOfOddShapesGiveWhatTheyHoldAndNoMore() throws Exception {
        String deep = "{\"model_id\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}";
        HttpServer server = serve(Map.of(
                "/v1/models",
                "{\"object\":\"list\",\"data\":[{\"id\":\"q.gguf\",\"owned_by\":\"llamacpp\","
                        + "\"meta\":{\"n_ctx_train\":32768.0,\"n_vocab\":151936}},{\"id\":\"second\"}]}",
                "/version",
                "{\"version\":4.5}"));
        HttpServer broken = serve(Map.of(
                "/v1/models", "{\"data\":[{\"id\":\"m\",\"owned_by\":\"gateway\"}]}",
                "/version", "<html><body>not here</body></html>",
                "/info", deep,
                "/props", "{\"default_generation_settings\":{\"n_ctx\":4096",
                "/api/version", "{\"version\":null}"));
        try {
            assertThat(probe(server)).isEqualTo(new ServerProbe.ServerInfo("q.gguf", 32768, "llama.cpp", "4.5"));
            // /api/version answered with the field, null: Ollama, without a version.
            assertThat(probe(broken)).isEqualTo(new ServerProbe.ServerInfo("m", null, "ollama", null));
        } finally {
            server.stop(0);
            broken.stop(0);
        }
    }

    /**
     * A models list of millions of entries, and as many fields the probe does not read, are read
     * past, not kept: the probe's own thread allocates a small part of the answer's size (kept,
     * the 2.5 million entries would take over 100 MB).
     */
    @Test
    void aHugeAnswerIsReadPastNotKept() throws Exception {
        int entries = 2_500_000;
        StringBuilder models =
                new StringBuilder(entries * 3 + 200).append("{\"data\":[{\"id\":\"m\",\"owned_by\":\"vllm\"}");
        models.append(",{}".repeat(entries)).append("],\"extra\":{");
        for (int i = 0; i < 10_000; i++) {
            models.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":[]");
        }
        models.append("}}");
        HttpServer server = serve(Map.of("/v1/models", models.toString()));
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try {
            long before = threads.getCurrentThreadAllocatedBytes();
            ServerProbe.ServerInfo info = probe(server);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            assertThat(info).isEqualTo(new ServerProbe.ServerInfo("m", null, "vllm", null));
            assertThat(allocated)
                    .as("bytes allocated by the probe's thread for a %d-byte answer", models.length())
                    .isLessThan(models.length());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aServerThatSaysNothingLeavesEverythingNull() throws Exception {
        HttpServer server = serve(Map.of());
        try {
            assertThat(probe(server)).isEqualTo(new ServerProbe.ServerInfo(null, null, null, null));
        } finally {
            server.stop(0);
        }
    }

    /**
     * Answers without end: a models list that never stops stops the run with one line, and a
     * metadata endpoint that never stops is left out; neither is read past 16 MiB.
     */
    @Test
    void anAnswerWithoutEndIsReadNoFurtherThanSixteenMebibytes() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        java.util.concurrent.atomic.AtomicBoolean endlessModels = new java.util.concurrent.atomic.AtomicBoolean(true);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/version") || path.equals("/v1/models") && endlessModels.get()) {
                exchange.sendResponseHeaders(200, 0);
                byte[] spaces = " ".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
                try (var out = exchange.getResponseBody()) {
                    out.write('{');
                    while (true) {
                        out.write(spaces);
                    }
                } catch (java.io.IOException clientHungUp) {
                    return;
                }
            }
            byte[] bytes = (path.equals("/v1/models")
                            ? "{\"data\":[{\"id\":\"m\",\"owned_by\":\"vllm\"}]}"
                            : "not found")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(path.equals("/v1/models") ? 200 : 404, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        try {
            int port = server.getAddress().getPort();
            assertThatThrownBy(() -> probe(server))
                    .isInstanceOf(RunException.class)
                    .hasMessage("server at http://127.0.0.1:" + port
                            + "/v1 answered more than 16 MiB to GET http://127.0.0.1:" + port + "/v1/models");
            endlessModels.set(false);
            assertThat(probe(server)).isEqualTo(new ServerProbe.ServerInfo("m", null, "vllm", null));
        } finally {
            server.stop(0);
        }
    }
}
