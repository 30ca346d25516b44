package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.testsupport.HostLoad;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every fault, forced per request by the {@code x-llmload-sim-fault} header. */
@Tag("loopback")
@Tag("timing")
class SimServerFaultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FAULT = "x-llmload-sim-fault";
    private static SimServer server;
    private static SimClient client;

    @BeforeAll
    static void start() {
        server = SimServer.start(SimTestConfigs.with(Map.of("retryAfterSeconds", 7)));
        client = new SimClient(server);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @ParameterizedTest
    @CsvSource({
        "http-400,400,BadRequestError",
        "http-429,429,RateLimitError",
        "http-500,500,InternalServerError",
        "http-503,503,ServiceUnavailableError"
    })
    void httpErrorsAnswerAtOnceInOpenAiShape(String fault, int status, String type) throws Exception {
        var r = client.post(
                "/v1/chat/completions",
                SimClient.chat("x", 5, true, true),
                FAULT,
                fault,
                "x-request-id",
                "f-" + status);
        assertThat(r.statusCode()).isEqualTo(status);
        JsonNode error = JSON.readTree(r.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo(type);
        assertThat(error.get("code").asInt()).isEqualTo(status);
        assertThat(r.headers().firstValue("x-request-id")).hasValue("f-" + status);
        assertThat(r.headers().firstValue("retry-after").isPresent()).isEqualTo(status == 429);
        if (status == 429) {
            assertThat(r.headers().firstValue("retry-after")).hasValue("7");
        }
    }

    @Test
    void disconnectAfterCutsTheConnectionWithoutTheLastChunk() throws Exception {
        var s = client.stream(
                "/v1/completions", SimClient.completion("x", 20, true, false), FAULT, "disconnect-after:5");
        assertThat(s.status()).isEqualTo(200);
        assertThat(s.events()).hasSize(5);
        assertThat(s.complete()).isFalse();
    }

    @Test
    void streamErrorAfterSendsVllmErrorThenDone() throws Exception {
        var s = client.stream(
                "/v1/chat/completions", SimClient.chat("x", 20, true, true), FAULT, "stream-error-after:3");
        List<String> data = s.events().stream().map(SimClient.Event::data).toList();
        assertThat(data).hasSize(1 + 3 + 2); // role, 3 tokens, error, [DONE]
        JsonNode error = JSON.readTree(data.get(4)).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(500);
        assertThat(error.get("type").asText()).isEqualTo("InternalServerError");
        assertThat(error.has("param")).isTrue();
        assertThat(data.getLast()).isEqualTo("[DONE]");
        assertThat(s.complete()).isTrue();
    }

    @Test
    void stallHoldsTheGivenTokenBack() throws Exception {
        var s = client.stream("/v1/completions", SimClient.completion("x", 8, true, false), FAULT, "stall:5:300");
        assertThat(s.events()).hasSize(8 + 2);
        double gap = (s.events().get(4).nanos() - s.events().get(3).nanos()) / 1e6;
        assertThat(gap).as(HostLoad.describe()).isBetween(290.0, 300.0 + HostLoad.slackMs(150));
        double before = (s.events().get(3).nanos() - s.events().get(0).nanos()) / 1e6;
        assertThat(before).as(HostLoad.describe()).isLessThan(HostLoad.slackMs(100));
    }

    @Test
    void malformedAfterSendsOneBrokenDataLineAndGoesOn() throws Exception {
        var s = client.stream("/v1/completions", SimClient.completion("x", 6, true, false), FAULT, "malformed-after:3");
        List<String> data = s.events().stream().map(SimClient.Event::data).toList();
        assertThat(data).hasSize(6 + 1 + 2);
        int broken = 0;
        for (String d : data) {
            if (!d.equals("[DONE]")) {
                try {
                    JSON.readTree(d);
                } catch (com.fasterxml.jackson.core.JacksonException e) {
                    broken++;
                }
            }
        }
        assertThat(broken).isEqualTo(1);
        assertThatThrownByJson(data.get(3));
    }

    @Test
    void badFaultHeaderIsA400() throws Exception {
        var r = client.post("/v1/completions", SimClient.completion("x", 2, false, false), FAULT, "explode");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("stall:N:MS");
    }

    @Test
    void configuredRateInjectsAboutThatShare() throws Exception {
        try (SimServer faulty =
                        SimServer.start(SimTestConfigs.with(Map.of("faults", List.of("http-503@0.5"), "seed", 42)));
                SimClient c = new SimClient(faulty)) {
            int failed = 0;
            for (int i = 0; i < 60; i++) {
                if (c.post("/v1/completions", SimClient.completion("x", 1, false, false))
                                .statusCode()
                        == 503) {
                    failed++;
                }
            }
            assertThat(failed).isBetween(15, 45);
        }
    }

    private static void assertThatThrownByJson(String data) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JSON.readTree(data))
                .isInstanceOf(com.fasterxml.jackson.core.JacksonException.class);
    }
}
