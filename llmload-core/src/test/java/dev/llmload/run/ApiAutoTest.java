package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.llmload.http.Endpoint;
import dev.llmload.protocol.ApiKind;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --api auto} against loopback servers answering as each engine does: chat where
 * {@code /v1/models} lists a model, else one line naming the native flag, never a silent guess.
 */
@Tag("loopback")
class ApiAutoTest {

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

    private static ApiKind resolve(Map<String, String> bodies) throws Exception {
        HttpServer server = serve(bodies);
        try {
            Endpoint endpoint = Endpoint.openAiBase(
                    "http://127.0.0.1:" + server.getAddress().getPort());
            return ServerProbe.resolveAuto(endpoint, ServerProbe.probe(endpoint, null, false), null, false);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anOpenAiCompatibleServerIsSpokenToAsChat() throws Exception {
        assertThat(resolve(Map.of("/v1/models", "{\"data\":[{\"id\":\"m\",\"owned_by\":\"vllm\"}]}")))
                .isEqualTo(ApiKind.CHAT);
    }

    @Test
    void aServerThatAnswersOnlyANativeApiStopsTheRunNamingTheFlag() {
        assertThatThrownBy(
                        () -> resolve(Map.of("/info", "{\"model_id\":\"mistralai/Mistral-7B\",\"version\":\"1.4.0\"}")))
                .isInstanceOf(RunException.class)
                .hasMessageEndingWith(
                        "answers no OpenAI API (/v1/models) but TGI's native API: use --api tgi; give --api and --model");
        assertThatThrownBy(() -> resolve(
                        Map.of("/v2", "{\"name\":\"triton\",\"version\":\"2.50.0\",\"extensions\":[\"generate\"]}")))
                .isInstanceOf(RunException.class)
                .hasMessageContaining("use --api triton");
        assertThatThrownBy(() -> resolve(Map.of("/api/version", "{\"version\":\"0.12.0\"}")))
                .isInstanceOf(RunException.class)
                .hasMessageContaining("use --api ollama or --api ollama-chat");
        assertThatThrownBy(() -> resolve(Map.of("/props", "{\"default_generation_settings\":{\"n_ctx\":4096}}")))
                .isInstanceOf(RunException.class)
                .hasMessageContaining("use --api llamacpp");
        assertThatThrownBy(() -> resolve(Map.of("/get_model_info", "{\"model_path\":\"Qwen/Qwen2.5-7B\"}")))
                .isInstanceOf(RunException.class)
                .hasMessageContaining("use --api sglang");
    }

    @Test
    void aServerThatAnswersNothingKnownSaysSo() {
        assertThatThrownBy(() -> resolve(Map.of()))
                .isInstanceOf(RunException.class)
                .hasMessageContaining("no native API llmload knows; give --api (chat, ");
    }

    @Test
    void anAnthropicProbeSendsTheKeyAsXApiKeyWithTheVersionAndNoBearer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            boolean allowed = "sk-ant-test".equals(exchange.getRequestHeaders().getFirst("x-api-key"))
                    && "2023-06-01".equals(exchange.getRequestHeaders().getFirst("anthropic-version"))
                    && exchange.getRequestHeaders().getFirst("Authorization") == null;
            byte[] bytes = (allowed ? "{\"data\":[{\"id\":\"claude-x\",\"type\":\"model\"}]}" : "{}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(allowed ? 200 : 401, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        try {
            Endpoint endpoint = Endpoint.openAiBase(
                    "http://127.0.0.1:" + server.getAddress().getPort());
            assertThat(ServerProbe.probe(endpoint, "sk-ant-test", ApiKind.ANTHROPIC, false)
                            .model())
                    .isEqualTo("claude-x");
            assertThatThrownBy(() -> ServerProbe.probe(endpoint, "sk-ant-test", ApiKind.CHAT, false))
                    .isInstanceOf(RunException.class)
                    .hasMessageContaining("refused the API key (HTTP 401)")
                    .hasMessageNotContaining("sk-ant-test");
        } finally {
            server.stop(0);
        }
    }
}
