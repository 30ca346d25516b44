package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.testsupport.HostLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("loopback")
@Tag("timing")
class SimGroundTruthTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void oneLinePerRequestWithTokenTimesAndOutcome(@TempDir Path dir) throws Exception {
        Path truth = dir.resolve("gt.jsonl");
        long before = System.currentTimeMillis();
        try (SimServer server = SimServer.start(
                        SimTestConfigs.with(Map.of("groundTruth", truth.toString(), "ttftMs", 10, "itlMs", 2)));
                SimClient client = new SimClient(server)) {
            client.stream("/v1/completions", SimClient.completion("cold", 2, true, false)); // class loading, JIT
            client.stream(
                    "/v1/chat/completions",
                    "{\"messages\":[{\"role\":\"system\",\"content\":\"s\"},"
                            + "{\"role\":\"user\",\"content\":\"hello\"}],\"max_tokens\":6,\"ignore_eos\":true,"
                            + "\"stream\":true}",
                    "x-request-id",
                    "gt-ok");
            client.stream(
                    "/v1/completions",
                    SimClient.completion("x", 10, true, false),
                    "x-request-id",
                    "gt-cut",
                    "x-llmload-sim-fault",
                    "disconnect-after:2");
            client.post(
                    "/v1/completions",
                    SimClient.completion("x", 3, false, false),
                    "x-request-id",
                    "gt-429",
                    "x-llmload-sim-fault",
                    "http-429");
            client.post("/v1/completions", SimClient.completion("x y", 3, false, false), "x-request-id", "gt-plain");
        }
        List<String> lines = Files.readAllLines(truth);
        assertThat(lines).hasSize(5);
        Map<String, JsonNode> byId = new HashMap<>();
        for (String line : lines) {
            JsonNode node = JSON.readTree(line);
            byId.put(node.get("request_id").asText(), node);
        }

        JsonNode ok = byId.get("gt-ok");
        assertThat(ok.get("arrival_unix_ms").asLong()).isBetween(before, System.currentTimeMillis());
        // The arrival on the wall clock in microseconds is the millisecond label's, refined.
        assertThat(Math.floorDiv(ok.get("arrival_unix_us").asLong(), 1000))
                .isEqualTo(ok.get("arrival_unix_ms").asLong());
        // Arrival (first byte read) <= hand-over to the engine <= scheduling; the engine's own queue
        // time is the part after the hand-over (each printed to 1 µs).
        double submitted = ok.get("submitted_ms").asDouble();
        assertThat(submitted).isBetween(0.0, ok.get("scheduled_ms").asDouble());
        assertThat(ok.get("engine_queue_ms").asDouble())
                .isCloseTo(ok.get("scheduled_ms").asDouble() - submitted, Offset.offset(0.002));
        JsonNode refused = byId.get("gt-429");
        assertThat(refused.get("outcome").asText()).isEqualTo("http_429");
        assertThat(refused.get("arrival_unix_us").asLong())
                .isGreaterThan(ok.get("arrival_unix_us").asLong());
        assertThat(refused.get("submitted_ms").isNull()).isTrue(); // refused before the engine saw it
        assertThat(refused.get("engine_queue_ms").isNull()).isTrue();
        // Wall-clock bounds of a quiet machine, widened with this one's load.
        assertThat(ok.get("scheduled_ms").asDouble()).as(HostLoad.describe()).isBetween(0.0, HostLoad.slackMs(10.0));
        assertThat(ok.get("token_times_ms")).hasSize(6);
        double previous = 0;
        for (JsonNode t : ok.get("token_times_ms")) {
            assertThat(t.asDouble()).isGreaterThan(previous);
            previous = t.asDouble();
        }
        assertThat(ok.get("token_times_ms").get(0).asDouble())
                .as(HostLoad.describe())
                .isBetween(10.0, HostLoad.slackMs(40.0)); // precision is SimServerTimingTest's job
        assertThat(lines.stream().filter(l -> l.contains("gt-ok")).findFirst().orElseThrow())
                .containsPattern("\"token_times_ms\":\\[\\d+\\.\\d{3},");
        assertThat(ok.get("prompt_tokens").asInt()).isEqualTo(3); // "s\nhello": contents joined by newlines
        assertThat(ok.get("completion_tokens").asInt()).isEqualTo(6);
        assertThat(ok.get("num_messages").asInt()).isEqualTo(2);
        assertThat(ok.get("finish_reason").asText()).isEqualTo("length");
        assertThat(ok.get("outcome").asText()).isEqualTo("success");

        JsonNode cut = byId.get("gt-cut");
        assertThat(cut.get("outcome").asText()).isEqualTo("disconnect");
        assertThat(cut.get("completion_tokens").asInt()).isEqualTo(2);
        assertThat(cut.get("finish_reason").isNull()).isTrue();

        JsonNode plain = byId.get("gt-plain");
        assertThat(plain.get("token_times_ms")).hasSize(1); // a non-streaming body is one write
        assertThat(plain.get("completion_tokens").asInt()).isEqualTo(3);
    }
}
