package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("loopback")
class SimServerEndpointsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static SimServer server;
    private static SimClient client;

    @BeforeAll
    static void start() {
        server = SimServer.start(SimTestConfigs.with(Map.of("model", "sim-model", "maxModelLen", 256)));
        client = new SimClient(server);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    /**
     * The SSE events are framed as HTTP chunks by the simulator itself, beneath Netty's encoder:
     * each chunk's size line must match its bytes exactly, each chunk must hold one whole event,
     * and the encoder must still end the response so that the next one on the connection works.
     */
    @Test
    void streamedResponsesAreExactHttpChunksOneEventEachAndKeepAliveGoesOn() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int round = 0; round < 2; round++) {
                byte[] body =
                        SimClient.completion("one two three", 3, true, false).getBytes(StandardCharsets.UTF_8);
                socket.getOutputStream()
                        .write(("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                        + "Content-Type: application/json\r\nContent-Length: " + body.length
                                        + "\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().write(body);
                assertThat(line(in)).isEqualTo("HTTP/1.1 200 OK");
                List<String> headers = new ArrayList<>();
                for (String h = line(in); !h.isEmpty(); h = line(in)) {
                    headers.add(h.toLowerCase(Locale.ROOT));
                }
                assertThat(headers)
                        .contains("transfer-encoding: chunked")
                        .noneMatch(h -> h.startsWith("content-length"));
                List<String> chunks = new ArrayList<>();
                for (int size = Integer.parseInt(line(in), 16); size > 0; size = Integer.parseInt(line(in), 16)) {
                    chunks.add(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                    assertThat(line(in))
                            .as("CRLF right after the chunk's %d bytes", size)
                            .isEmpty();
                }
                assertThat(line(in))
                        .as("the empty trailer after the last chunk")
                        .isEmpty();
                assertThat(chunks)
                        .hasSize(3 + 1 + 1)
                        .allMatch(c ->
                                c.startsWith("data: ") && c.endsWith("\n\n") && c.indexOf("\n\n") == c.length() - 2);
                assertThat(chunks.getLast()).isEqualTo("data: [DONE]\n\n");
            }
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            assertThat(b).as("connection ended inside a line").isNotEqualTo(-1);
            bytes.write(b);
        }
        String s = bytes.toString(StandardCharsets.US_ASCII);
        assertThat(s).as("line ends with CRLF").endsWith("\r");
        return s.substring(0, s.length() - 1);
    }

    @Test
    void chatStreamHasVllmChunkShapeUsageChunkAndDone() throws Exception {
        var s = client.stream(
                "/v1/chat/completions", SimClient.chat("hello there", 4, true, true), "x-request-id", "req-123");

        assertThat(s.status()).isEqualTo(200);
        assertThat(s.header("x-request-id")).isEqualTo("req-123");
        assertThat(s.header("content-type")).startsWith("text/event-stream");
        assertThat(s.complete()).isTrue();
        List<String> data = s.events().stream().map(SimClient.Event::data).toList();
        assertThat(data).hasSize(1 + 4 + 1 + 1 + 1);
        assertThat(data.getLast()).isEqualTo("[DONE]");

        JsonNode role = JSON.readTree(data.get(0));
        assertThat(role.get("id").asText()).isEqualTo("chatcmpl-req-123");
        assertThat(role.get("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(role.get("model").asText()).isEqualTo("m");
        assertThat(role.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(role.at("/choices/0/delta/content").asText()).isEmpty();
        for (int i = 0; i < 6; i++) {
            JsonNode chunk = JSON.readTree(data.get(i));
            assertThat(chunk.has("usage")).isTrue();
            assertThat(chunk.get("usage").isNull()).isTrue();
        }
        for (int i = 1; i <= 4; i++) {
            JsonNode chunk = JSON.readTree(data.get(i));
            assertThat(chunk.at("/choices/0/delta/content").asText()).matches(" \\w+");
            assertThat(chunk.at("/choices/0/finish_reason").isNull()).isTrue();
        }
        JsonNode finish = JSON.readTree(data.get(5));
        assertThat(finish.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(finish.at("/choices/0/delta/content").asText()).isEmpty();
        JsonNode usage = JSON.readTree(data.get(6));
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/prompt_tokens").asInt()).isEqualTo(2); // "hello there" in cl100k_base
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(4);
        assertThat(usage.at("/usage/total_tokens").asInt()).isEqualTo(6);
    }

    @Test
    void completionStreamWithoutUsageHasNoUsageField() throws Exception {
        var s = client.stream("/v1/completions", SimClient.completion("one two three", 3, true, false));

        List<String> data = s.events().stream().map(SimClient.Event::data).toList();
        assertThat(data).hasSize(3 + 1 + 1);
        assertThat(s.header("x-request-id")).matches("[0-9a-f]{32}");
        for (int i = 0; i < 4; i++) {
            JsonNode chunk = JSON.readTree(data.get(i));
            assertThat(chunk.get("object").asText()).isEqualTo("text_completion");
            assertThat(chunk.has("usage")).isFalse();
            assertThat(chunk.at("/choices/0/stop_reason").isNull()).isTrue();
        }
        assertThat(JSON.readTree(data.get(0)).at("/choices/0/text").asText()).isNotEmpty();
        assertThat(JSON.readTree(data.get(3)).at("/choices/0/finish_reason").asText())
                .isEqualTo("length");
        assertThat(data.getLast()).isEqualTo("[DONE]");
    }

    @Test
    void nonStreamingChatAndCompletionCarryUsage() throws Exception {
        var chat = client.post(
                "/v1/chat/completions",
                "{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":"
                        + "[{\"type\":\"text\",\"text\":\"hi\"}]}],\"max_completion_tokens\":5,\"ignore_eos\":true}");
        assertThat(chat.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(chat.body());
        assertThat(body.get("object").asText()).isEqualTo("chat.completion");
        assertThat(body.get("model").asText()).isEqualTo("sim-model");
        assertThat(body.at("/choices/0/message/role").asText()).isEqualTo("assistant");
        assertThat(body.at("/choices/0/message/content").asText().strip().split(" "))
                .hasSize(5);
        assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(body.at("/usage/completion_tokens").asInt()).isEqualTo(5);
        assertThat(body.at("/usage/prompt_tokens").asInt()).isPositive();

        var completion = client.post("/v1/completions", SimClient.completion("a b", 2, false, false));
        JsonNode c = JSON.readTree(completion.body());
        assertThat(c.get("object").asText()).isEqualTo("text_completion");
        assertThat(c.at("/usage/completion_tokens").asInt()).isEqualTo(2);
        assertThat(c.at("/usage/total_tokens").asInt())
                .isEqualTo(c.at("/usage/prompt_tokens").asInt() + 2);
    }

    @Test
    void withoutIgnoreEosTheLengthIsSampledAtLeastMinTokens() throws Exception {
        try (SimServer short_ = SimServer.start(SimTestConfigs.with(Map.of("meanOutputTokens", 1)));
                SimClient c = new SimClient(short_)) {
            JsonNode stopped =
                    JSON.readTree(c.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":50,\"min_tokens\":7}")
                            .body());
            assertThat(stopped.at("/usage/completion_tokens").asInt()).isEqualTo(7);
            assertThat(stopped.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
            JsonNode capped =
                    JSON.readTree(c.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":3,\"min_tokens\":3}")
                            .body());
            assertThat(capped.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        }
    }

    @Test
    void echoHeaderRepeatsThePromptWords() throws Exception {
        var r = client.post(
                "/v1/chat/completions",
                SimClient.chat("alpha beta gamma", 5, false, false),
                "x-llmload-sim-echo",
                "true");
        assertThat(JSON.readTree(r.body()).at("/choices/0/message/content").asText())
                .isEqualTo(" alpha beta gamma alpha beta");
    }

    @Test
    void metadataEndpoints() throws Exception {
        JsonNode models = JSON.readTree(client.get("/v1/models").body());
        assertThat(models.at("/data/0/id").asText()).isEqualTo("sim-model");
        assertThat(models.at("/data/0/max_model_len").asInt()).isEqualTo(256);
        assertThat(models.at("/data/0/owned_by").asText()).isEqualTo("llmload-sim");
        assertThat(JSON.readTree(client.get("/version").body()).get("version").asText())
                .isNotBlank();
        assertThat(client.get("/health").statusCode()).isEqualTo(200);
        var metrics = client.get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
    }

    @Test
    void errorsUseOpenAiShape() throws Exception {
        var unknown = client.get("/v1/nothing");
        assertThat(unknown.statusCode()).isEqualTo(404);

        var badJson = client.post("/v1/chat/completions", "{not json");
        assertThat(badJson.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(badJson.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("BadRequestError");
        assertThat(error.get("code").asInt()).isEqualTo(400);
        assertThat(error.get("param").isNull()).isTrue();
        assertThat(error.get("message").asText()).isNotBlank();

        assertThat(client.post("/v1/chat/completions", "{\"model\":\"m\"}").statusCode())
                .isEqualTo(400);
        assertThat(client.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":0}")
                        .statusCode())
                .isEqualTo(400);

        var tooLong = client.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":1000}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("maximum context length is 256");
    }
}
