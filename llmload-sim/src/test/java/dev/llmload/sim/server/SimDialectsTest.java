package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every native API the simulator serves, over loopback: the stream's framing and final event as
 * the server's own documentation shows it, the token count the engine generated, the server's
 * timings consistent with its ground-truth log, and errors in each API's own shape.
 */
@Tag("loopback")
class SimDialectsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FAULT = "x-llmload-sim-fault";
    private static final int TOKENS = 5;

    @TempDir
    static Path dir;

    private static Path truth;
    private static SimServer server;
    private static SimClient client;

    @BeforeAll
    static void start() {
        truth = dir.resolve("truth.jsonl");
        server = SimServer.start(SimTestConfigs.with(
                Map.of("model", "sim-model", "groundTruth", truth.toString(), "ttftMs", 20, "itlMs", 2)));
        client = new SimClient(server);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void tgiStreamsOneTokenPerEventWithoutDoneAndEndsWithDetails() throws Exception {
        var s = client.stream(
                "/generate_stream",
                "{\"inputs\":\"hello there\",\"parameters\":{\"max_new_tokens\":" + TOKENS + ",\"ignore_eos\":true}}",
                "x-request-id",
                "tgi-1");
        assertThat(s.status()).isEqualTo(200);
        assertThat(s.header("content-type")).startsWith("text/event-stream");
        List<JsonNode> events = json(s);
        assertThat(events).hasSize(TOKENS + 1);
        for (int i = 0; i < TOKENS; i++) {
            assertThat(events.get(i).get("index").asInt()).isEqualTo(i + 1);
            assertThat(events.get(i).at("/token/text").asText()).isNotEmpty();
            assertThat(events.get(i).get("details").isNull()).isTrue();
        }
        JsonNode last = events.get(TOKENS);
        assertThat(last.at("/details/generated_tokens").asInt()).isEqualTo(TOKENS);
        assertThat(last.at("/details/finish_reason").asText()).isEqualTo("length");
        assertThat(last.get("generated_text").asText()).isEqualTo(concat(events.subList(0, TOKENS), "/token/text"));
        assertThat(events.stream().map(JsonNode::toString)).noneMatch(e -> e.contains("[DONE]"));
        assertGroundTruth("tgi-1", "tgi", TOKENS);
    }

    @Test
    void tgiAndSglangShareGenerateAndAreToldApartByTheirBodies() throws Exception {
        var tgi = client.post(
                "/generate", "{\"inputs\":\"x\",\"parameters\":{\"max_new_tokens\":3,\"ignore_eos\":true}}");
        assertThat(JSON.readTree(tgi.body()).at("/details/generated_tokens").asInt())
                .isEqualTo(3);
        var sglang = client.post(
                "/generate", "{\"text\":\"x\",\"sampling_params\":{\"max_new_tokens\":3," + "\"ignore_eos\":true}}");
        assertThat(JSON.readTree(sglang.body())
                        .at("/meta_info/completion_tokens")
                        .asInt())
                .isEqualTo(3);
    }

    @Test
    void tritonStreamsTextOutputAndEndsWithTheResponse() throws Exception {
        var s = client.stream(
                "/v2/models/ensemble/generate_stream",
                "{\"text_input\":\"hi\",\"max_tokens\":" + TOKENS + ",\"ignore_eos\":true,\"stream\":true}",
                "x-request-id",
                "triton-1");
        List<JsonNode> events = json(s);
        assertThat(s.complete()).isTrue();
        assertThat(events).hasSize(TOKENS).allSatisfy(e -> {
            assertThat(e.get("text_output").asText()).isNotEmpty();
            assertThat(e.get("model_name").asText()).isEqualTo("ensemble");
        });
        assertGroundTruth("triton-1", "triton", TOKENS);
    }

    @Test
    void ollamaStreamsNdjsonAndItsLastLineHasCountsAndNanosecondDurations() throws Exception {
        for (String api : List.of("generate", "chat")) {
            String body = api.equals("chat")
                    ? "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                    : "{\"model\":\"m\",\"prompt\":\"hi\",";
            var s = client.stream(
                    "/api/" + api,
                    body + "\"options\":{\"num_predict\":" + TOKENS + ",\"ignore_eos\":true}}",
                    "x-request-id",
                    "ollama-" + api);
            assertThat(s.header("content-type")).isEqualTo("application/x-ndjson");
            List<JsonNode> lines = json(s);
            assertThat(lines).hasSize(TOKENS + 1);
            assertThat(lines.subList(0, TOKENS))
                    .allSatisfy(l -> assertThat(l.get("done").asBoolean()).isFalse());
            JsonNode last = lines.get(TOKENS);
            assertThat(last.get("done").asBoolean()).isTrue();
            assertThat(last.get("eval_count").asInt()).isEqualTo(TOKENS);
            assertThat(last.get("prompt_eval_count").asInt()).isPositive();
            long total = last.get("total_duration").asLong();
            long prefill = last.get("prompt_eval_duration").asLong();
            long decode = last.get("eval_duration").asLong();
            // Nanoseconds: the fixed engine's 20 ms TTFT is 2e7 ns, not 20.
            assertThat(prefill + decode).isLessThanOrEqualTo(total);
            assertThat(total).isGreaterThan(15_000_000L);
            String text = api.equals("chat")
                    ? concat(lines.subList(0, TOKENS), "/message/content")
                    : concat(lines.subList(0, TOKENS), "/response");
            assertThat(text).isNotBlank();
            assertGroundTruth("ollama-" + api, api.equals("chat") ? "ollama-chat" : "ollama", TOKENS);
        }
    }

    @Test
    void llamaCppStreamsContentAndEndsWithStopAndTimings() throws Exception {
        var s = client.stream(
                "/completion",
                "{\"prompt\":\"hi\",\"n_predict\":" + TOKENS + ",\"ignore_eos\":true,\"stream\":true}",
                "x-request-id",
                "llamacpp-1");
        List<JsonNode> events = json(s);
        assertThat(events).hasSize(TOKENS + 1);
        assertThat(events.get(TOKENS - 1).get("tokens_predicted").asInt()).isEqualTo(TOKENS);
        JsonNode last = events.get(TOKENS);
        assertThat(last.get("stop").asBoolean()).isTrue();
        assertThat(last.get("stop_type").asText()).isEqualTo("limit");
        assertThat(last.at("/timings/predicted_n").asInt()).isEqualTo(TOKENS);
        assertThat(last.at("/timings/prompt_ms").asDouble()).isGreaterThan(15.0); // milliseconds: the 20 ms TTFT
        assertGroundTruth("llamacpp-1", "llamacpp", TOKENS);
    }

    @Test
    void sglangStreamsCumulativeTextWithCountsSoFarAndEndsWithDone() throws Exception {
        var s = client.stream(
                "/generate",
                "{\"text\":\"hi\",\"sampling_params\":{\"max_new_tokens\":" + TOKENS
                        + ",\"ignore_eos\":true},\"stream\":true}",
                "x-request-id",
                "sglang-1");
        List<SimClient.Event> raw = s.events();
        assertThat(raw.get(raw.size() - 1).data()).isEqualTo("[DONE]");
        List<JsonNode> events = json(s);
        assertThat(events).hasSize(TOKENS + 1);
        for (int i = 1; i < TOKENS; i++) {
            assertThat(events.get(i).get("text").asText())
                    .startsWith(events.get(i - 1).get("text").asText());
            assertThat(events.get(i).at("/meta_info/completion_tokens").asInt()).isEqualTo(i + 1);
        }
        assertThat(events.get(TOKENS).at("/meta_info/finish_reason/type").asText())
                .isEqualTo("length");
        assertGroundTruth("sglang-1", "sglang", TOKENS);
    }

    @Test
    void anthropicStreamsNamedEventsWithUsage() throws Exception {
        var s = client.stream(
                "/v1/messages",
                "{\"model\":\"m\",\"max_tokens\":" + TOKENS + ",\"ignore_eos\":true,"
                        + "\"stream\":true,\"system\":\"be brief\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "x-api-key",
                "k",
                "anthropic-version",
                "2023-06-01",
                "x-request-id",
                "anthropic-1");
        List<String> names = s.events().stream().map(SimClient.Event::name).toList();
        List<String> expected = new ArrayList<>(List.of("message_start", "content_block_start"));
        for (int i = 0; i < TOKENS; i++) {
            expected.add("content_block_delta");
        }
        expected.addAll(List.of("content_block_stop", "message_delta", "message_stop"));
        assertThat(names).isEqualTo(expected);
        List<JsonNode> events = json(s);
        assertThat(events.get(0).at("/message/usage/input_tokens").asInt()).isPositive();
        assertThat(events.get(2).at("/delta/type").asText()).isEqualTo("text_delta");
        assertThat(events.get(TOKENS + 3).at("/usage/output_tokens").asInt()).isEqualTo(TOKENS);
        assertThat(events.get(TOKENS + 3).at("/delta/stop_reason").asText()).isEqualTo("max_tokens");
        assertGroundTruth("anthropic-1", "anthropic", TOKENS);
    }

    @Test
    void responsesStreamsDeltasAndEndsIncompleteWhenTheLimitCutIt() throws Exception {
        var s = client.stream(
                "/v1/responses",
                "{\"model\":\"m\",\"input\":\"hi\",\"max_output_tokens\":" + TOKENS
                        + ",\"ignore_eos\":true,\"stream\":true}",
                "x-request-id",
                "responses-1");
        List<String> names = s.events().stream().map(SimClient.Event::name).toList();
        assertThat(names.get(0)).isEqualTo("response.created");
        assertThat(names.subList(1, TOKENS + 1)).containsOnly("response.output_text.delta");
        assertThat(names.get(TOKENS + 1)).isEqualTo("response.incomplete");
        JsonNode last = json(s).get(TOKENS + 1);
        assertThat(last.at("/response/usage/output_tokens").asInt()).isEqualTo(TOKENS);
        assertThat(last.at("/response/incomplete_details/reason").asText()).isEqualTo("max_output_tokens");
        assertGroundTruth("responses-1", "responses", TOKENS);
    }

    @Test
    void embeddingsAndRerankAnswerWholeWithOneResultPerInput() throws Exception {
        var embeddings = client.post("/v1/embeddings", "{\"model\":\"m\",\"input\":[\"a b c\",\"d e\",\"f\"]}");
        assertThat(embeddings.statusCode()).isEqualTo(200);
        JsonNode e = JSON.readTree(embeddings.body());
        assertThat(e.get("data")).hasSize(3);
        assertThat(e.at("/usage/prompt_tokens").asInt()).isPositive();
        var rerank = client.post("/v1/rerank", "{\"model\":\"m\",\"query\":\"q\",\"documents\":[\"a\",\"b\"]}");
        assertThat(JSON.readTree(rerank.body()).get("results")).hasSize(2);
    }

    @Test
    void imagesInChatCountAsTheirPatchesInThePromptTokens() throws Exception {
        String text =
                "{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                        + "\"text\":\"what is this\"}";
        int withoutImage = JSON.readTree(
                        client.post("/v1/chat/completions", text + "]}]}").body())
                .at("/usage/prompt_tokens")
                .asInt();
        String image = "data:image/png;base64," + Base64.getEncoder().encodeToString(png(56, 30));
        int withImage = JSON.readTree(client.post(
                                "/v1/chat/completions",
                                text + ",{\"type\":\"image_url\"," + "\"image_url\":{\"url\":\"" + image + "\"}}]}]}")
                        .body())
                .at("/usage/prompt_tokens")
                .asInt();
        // ceil(56/28) × ceil(30/28) = 2 × 2
        assertThat(withImage - withoutImage).isEqualTo(4);
    }

    @Test
    void errorsInsideAStreamComeInEachApisOwnShape() throws Exception {
        Map<String, String[]> requests = new HashMap<>();
        requests.put(
                "tgi", new String[] {"/generate_stream", "{\"inputs\":\"x\",\"parameters\":{\"max_new_tokens\":9}}"});
        requests.put("ollama", new String[] {"/api/generate", "{\"prompt\":\"x\",\"options\":{\"num_predict\":9}}"});
        requests.put(
                "triton", new String[] {"/v2/models/m/generate_stream", "{\"text_input\":\"x\",\"max_tokens\":9}"});
        requests.put("anthropic", new String[] {
            "/v1/messages", "{\"max_tokens\":9,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"
        });
        requests.put(
                "responses",
                new String[] {"/v1/responses", "{\"input\":\"x\",\"max_output_tokens\":9,\"stream\":true}"});
        requests.put("sglang", new String[] {
            "/generate", "{\"text\":\"x\",\"stream\":true,\"sampling_params\":" + "{\"max_new_tokens\":9}}"
        });
        requests.put("llamacpp", new String[] {"/completion", "{\"prompt\":\"x\",\"n_predict\":9,\"stream\":true}"});
        for (var entry : requests.entrySet()) {
            var s = client.stream(entry.getValue()[0], entry.getValue()[1], FAULT, "stream-error-after:2");
            JsonNode error = json(s).get(json(s).size() - 1);
            assertThat(error.toString()).as(entry.getKey()).contains("Injected error");
            String message = switch (entry.getKey()) {
                case "tgi", "ollama", "triton" -> error.get("error").asText();
                case "anthropic" -> error.at("/error/message").asText();
                case "responses" -> error.get("message").asText();
                default -> error.at("/error/message").asText();
            };
            assertThat(message).as(entry.getKey()).contains("Injected error after 2 tokens");
        }
        var anthropic = client.post(
                "/v1/messages",
                "{\"max_tokens\":9,\"messages\":[{\"role\":\"user\"," + "\"content\":\"x\"}]}",
                FAULT,
                "http-503");
        assertThat(JSON.readTree(anthropic.body()).get("type").asText()).isEqualTo("error");
        assertThat(JSON.readTree(anthropic.body()).at("/error/type").asText()).isEqualTo("overloaded_error");
    }

    @Test
    void chatSendsItsRoleChunkWithTheFirstTokenUnlessToldToSendItEarly() throws Exception {
        Map<String, Object> slow = Map.of("ttftMs", 400, "itlMs", 1);
        for (boolean early : new boolean[] {false, true}) {
            Map<String, Object> config = new HashMap<>(slow);
            config.put("earlyRoleChunk", early);
            try (SimServer sim = SimServer.start(SimTestConfigs.with(config));
                    SimClient c = new SimClient(sim)) {
                var s = c.stream("/v1/chat/completions", SimClient.chat("x", 2, true, false));
                SimClient.Event role = s.events().get(0);
                assertThat(JSON.readTree(role.data())
                                .at("/choices/0/delta/role")
                                .asText())
                        .isEqualTo("assistant");
                double roleMs = (role.nanos() - s.sentNanos()) / 1e6;
                double firstTokenMs = (s.events().get(1).nanos() - s.sentNanos()) / 1e6;
                if (early) {
                    // Sent on acceptance; the engine's first token follows 400 ms later.
                    assertThat(firstTokenMs - roleMs)
                            .as("early role chunk before the first token")
                            .isGreaterThan(200);
                } else {
                    // Never before the engine's first token: the simulator cannot write it earlier.
                    assertThat(roleMs).as("role chunk with the first token").isGreaterThanOrEqualTo(390);
                }
            }
        }
    }

    private static List<JsonNode> json(SimClient.Streamed s) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (SimClient.Event event : s.events()) {
            if (!event.data().equals("[DONE]")) {
                nodes.add(JSON.readTree(event.data()));
            }
        }
        return nodes;
    }

    private static String concat(List<JsonNode> events, String pointer) {
        StringBuilder text = new StringBuilder();
        events.forEach(e -> text.append(e.at(pointer).asText()));
        return text.toString();
    }

    private static void assertGroundTruth(String requestId, String api, int tokens) throws Exception {
        // The log's own thread writes the line once the response has ended: wait for it.
        JsonNode line = null;
        for (long deadline = System.nanoTime() + 10_000_000_000L; line == null && System.nanoTime() < deadline; ) {
            for (String l : Files.readAllLines(truth)) {
                JsonNode node = JSON.readTree(l);
                if (node.get("request_id").asText().equals(requestId)) {
                    line = node;
                }
            }
            if (line == null) {
                Thread.sleep(20);
            }
        }
        assertThat(line).as("ground truth of " + requestId).isNotNull();
        assertThat(line.get("api").asText()).isEqualTo(api);
        assertThat(line.get("completion_tokens").asInt()).isEqualTo(tokens);
        assertThat(line.get("token_times_ms")).hasSize(tokens);
        assertThat(line.get("outcome").asText()).isEqualTo("success");
    }

    /** The first 24 bytes of a PNG: signature and IHDR with {@code width} × {@code height}; enough for a header reader. */
    private static byte[] png(int width, int height) {
        byte[] bytes = new byte[33];
        byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        System.arraycopy(signature, 0, bytes, 0, signature.length);
        bytes[16] = (byte) (width >>> 24);
        bytes[17] = (byte) (width >>> 16);
        bytes[18] = (byte) (width >>> 8);
        bytes[19] = (byte) width;
        bytes[20] = (byte) (height >>> 24);
        bytes[21] = (byte) (height >>> 16);
        bytes[22] = (byte) (height >>> 8);
        bytes[23] = (byte) height;
        return bytes;
    }
}
