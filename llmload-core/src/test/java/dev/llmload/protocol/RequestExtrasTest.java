package dev.llmload.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sampling parameters go where each API's servers read them; extra body fields and headers reach every dialect. */
class RequestExtrasTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RequestSpec SPEC = new RequestSpec(3, List.of(ChatMessage.user("Why?")), 4, 16);
    private static final RequestExtras SAMPLING =
            RequestExtras.parse(List.of("x-route: a"), "{\"seed\": 9}", 0.7, 0.8, 40, List.of("END"));

    private static JsonNode body(ApiKind api, RequestExtras extras) throws Exception {
        return JSON.readTree(
                Dialect.of(new RequestOptions(api, "m", true, true, extras)).encode(SPEC));
    }

    @Test
    void eachDialectPutsSamplingWhereItsServersReadIt() throws Exception {
        for (ApiKind api : List.of(ApiKind.CHAT, ApiKind.COMPLETIONS, ApiKind.LLAMACPP)) {
            JsonNode body = body(api, SAMPLING);
            assertThat(body.path("temperature").asDouble()).as(api.cliName()).isEqualTo(0.7);
            assertThat(body.path("top_p").asDouble()).as(api.cliName()).isEqualTo(0.8);
            assertThat(body.path("top_k").asInt()).as(api.cliName()).isEqualTo(40);
            assertThat(body.at("/stop/0").asText()).as(api.cliName()).isEqualTo("END");
        }
        JsonNode anthropic = body(ApiKind.ANTHROPIC, SAMPLING);
        assertThat(anthropic.at("/stop_sequences/0").asText()).isEqualTo("END");
        assertThat(anthropic.path("top_k").asInt()).isEqualTo(40);
        assertThat(anthropic.has("stop")).isFalse();
        JsonNode sglang = body(ApiKind.SGLANG, SAMPLING);
        assertThat(sglang.at("/sampling_params/top_p").asDouble()).isEqualTo(0.8);
        assertThat(sglang.at("/sampling_params/stop/0").asText()).isEqualTo("END");
        JsonNode ollama = body(ApiKind.OLLAMA_CHAT, SAMPLING);
        assertThat(ollama.at("/options/top_k").asInt()).isEqualTo(40);
        assertThat(ollama.at("/options/stop/0").asText()).isEqualTo("END");
        JsonNode tgi = body(ApiKind.TGI, SAMPLING);
        assertThat(tgi.at("/parameters/top_k").asInt()).isEqualTo(40);
        assertThat(tgi.at("/parameters/do_sample").asBoolean()).isTrue();
        assertThat(tgi.at("/parameters/stop/0").asText()).isEqualTo("END");
        // The extra body reaches every dialect, at the body's top level.
        for (ApiKind api : List.of(ApiKind.CHAT, ApiKind.ANTHROPIC, ApiKind.SGLANG, ApiKind.TGI, ApiKind.OLLAMA)) {
            assertThat(body(api, SAMPLING).path("seed").asInt())
                    .as(api.cliName())
                    .isEqualTo(9);
        }
        RequestExtras bodyOnly = RequestExtras.parse(List.of(), "{\"dimensions\": 256}", null, null, null, List.of());
        assertThat(body(ApiKind.EMBEDDINGS, bodyOnly).path("dimensions").asInt())
                .isEqualTo(256);
    }

    @Test
    void anApiWithoutAParameterRefusesItInOneLine() {
        assertThat(SAMPLING.refusal(ApiKind.RESPONSES)).contains("top_k");
        assertThat(SAMPLING.refusal(ApiKind.EMBEDDINGS)).contains("--api embeddings");
        assertThat(SAMPLING.refusal(ApiKind.TRITON)).contains("--extra-body");
        assertThat(SAMPLING.refusal(ApiKind.CHAT)).isNull();
        assertThatThrownBy(() -> new RequestOptions(ApiKind.RERANK, "m", false, false, SAMPLING))
                .hasMessageContaining("--api rerank");
    }

    @Test
    void headersJoinTheDialectsOwnAndWin() {
        Map<String, String> anthropic = Dialect.of(new RequestOptions(
                        ApiKind.ANTHROPIC,
                        "m",
                        true,
                        true,
                        RequestExtras.parse(
                                List.of("anthropic-version: 2025-01-01", "x-route: a"), null, null, null, null, null)))
                .headers();
        assertThat(anthropic).containsEntry("anthropic-version", "2025-01-01").containsEntry("x-route", "a");
        assertThat(Dialect.of(new RequestOptions(ApiKind.CHAT, "m", true, true, SAMPLING))
                        .headers())
                .containsExactly(Map.entry("x-route", "a"));
    }

    @Test
    void credentialsAreRedactedByName() {
        RequestExtras extras = RequestExtras.parse(
                List.of(
                        "Authorization: Bearer s3",
                        "X-Api-Key: k",
                        "x-auth-token: t",
                        "Cookie: c=1",
                        "client-secret: z",
                        "x-route: pool-a"),
                null,
                null,
                null,
                null,
                null);
        assertThat(extras.redactedHeaders())
                .containsExactly(
                        Map.entry("Authorization", "[redacted]"),
                        Map.entry("X-Api-Key", "[redacted]"),
                        Map.entry("x-auth-token", "[redacted]"),
                        Map.entry("Cookie", "[redacted]"),
                        Map.entry("client-secret", "[redacted]"),
                        Map.entry("x-route", "pool-a"));
        assertThat(RequestExtras.redactArgument("authorization:Bearer s3")).isEqualTo("authorization: [redacted]");
        assertThat(RequestExtras.redactArgument("x-route: pool-a")).isEqualTo("x-route: pool-a");
    }

    @Test
    void badValuesAreRefusedWithTheOptionsName() {
        // A mistyped credential is never echoed.
        assertThatThrownBy(() ->
                        RequestExtras.parse(List.of("Authorization Bearer s3cr3t: 1"), null, null, null, null, null))
                .hasMessageStartingWith("--header")
                .hasMessageNotContaining("s3cr3t");
        assertThatThrownBy(
                        () -> RequestExtras.parse(List.of("Authorization Bearer s3cr3t"), null, null, null, null, null))
                .hasMessageStartingWith("--header")
                .hasMessageNotContaining("s3cr3t");
        assertThatThrownBy(() -> RequestExtras.parse(List.of("x-a: 1\r\nx-b: 2"), null, null, null, null, null))
                .hasMessageContaining("line break");
        assertThatThrownBy(() -> RequestExtras.parse(null, "3", null, null, null, null))
                .hasMessageStartingWith("--extra-body");
        assertThatThrownBy(() -> RequestExtras.parse(null, null, -1.0, null, null, null))
                .hasMessageStartingWith("--temperature");
        assertThatThrownBy(() -> RequestExtras.parse(null, null, null, 0.0, null, null))
                .hasMessageStartingWith("--top-p");
        assertThatThrownBy(() -> RequestExtras.parse(null, null, null, null, 0, null))
                .hasMessageStartingWith("--top-k");
    }
}
