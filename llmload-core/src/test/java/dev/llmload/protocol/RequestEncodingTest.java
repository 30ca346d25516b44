package dev.llmload.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** What each dialect sends: paths, bodies as the servers document them, headers, images and batches. */
class RequestEncodingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RequestSpec SPEC = new RequestSpec(
            7, List.of(new ChatMessage("system", "Be brief."), ChatMessage.user("Why is the sky blue?")), 12, 64);

    private static JsonNode body(ApiKind api, RequestOptions options) throws Exception {
        return JSON.readTree(Dialect.of(options).encode(SPEC));
    }

    private static RequestOptions options(ApiKind api) {
        return new RequestOptions(api, "m", true, true, new RequestExtras(null, null, 0.5, null, null, null));
    }

    @Test
    void eachNativeDialectWritesItsServersDocumentedFields() throws Exception {
        JsonNode tgi = body(ApiKind.TGI, options(ApiKind.TGI));
        assertThat(tgi.get("inputs").asText()).isEqualTo(SPEC.promptText());
        assertThat(tgi.at("/parameters/max_new_tokens").asInt()).isEqualTo(64);
        assertThat(tgi.at("/parameters/details").asBoolean()).isTrue();

        JsonNode triton = body(ApiKind.TRITON, options(ApiKind.TRITON));
        assertThat(triton.get("text_input").asText()).isEqualTo(SPEC.promptText());
        assertThat(triton.get("max_tokens").asInt()).isEqualTo(64);
        assertThat(Dialect.of(options(ApiKind.TRITON)).path()).isEqualTo("/v2/models/m/generate_stream");

        JsonNode ollama = body(ApiKind.OLLAMA, options(ApiKind.OLLAMA));
        assertThat(ollama.get("prompt").asText()).isEqualTo(SPEC.promptText());
        assertThat(ollama.at("/options/num_predict").asInt()).isEqualTo(64);
        JsonNode ollamaChat = body(ApiKind.OLLAMA_CHAT, options(ApiKind.OLLAMA_CHAT));
        assertThat(ollamaChat.at("/messages/1/content").asText()).isEqualTo("Why is the sky blue?");

        JsonNode llama = body(ApiKind.LLAMACPP, options(ApiKind.LLAMACPP));
        assertThat(llama.get("n_predict").asInt()).isEqualTo(64);
        assertThat(llama.get("ignore_eos").asBoolean()).isTrue();

        JsonNode sglang = body(ApiKind.SGLANG, options(ApiKind.SGLANG));
        assertThat(sglang.get("text").asText()).isEqualTo(SPEC.promptText());
        assertThat(sglang.at("/sampling_params/max_new_tokens").asInt()).isEqualTo(64);
        assertThat(sglang.at("/sampling_params/ignore_eos").asBoolean()).isTrue();

        JsonNode anthropic = body(ApiKind.ANTHROPIC, options(ApiKind.ANTHROPIC));
        assertThat(anthropic.get("system").asText()).isEqualTo("Be brief.");
        assertThat(anthropic.get("messages")).hasSize(1);
        assertThat(anthropic.at("/messages/0/role").asText()).isEqualTo("user");
        assertThat(anthropic.get("max_tokens").asInt()).isEqualTo(64);

        JsonNode responses = body(ApiKind.RESPONSES, options(ApiKind.RESPONSES));
        assertThat(responses.get("input")).hasSize(2);
        assertThat(responses.get("max_output_tokens").asInt()).isEqualTo(64);
    }

    @Test
    void embeddingsAndRerankCarryTheBatchSize() throws Exception {
        JsonNode embeddings =
                body(ApiKind.EMBEDDINGS, new RequestOptions(ApiKind.EMBEDDINGS, "e", false, false, null, 4, null, 0));
        assertThat(embeddings.get("input")).hasSize(4);
        assertThat(embeddings.at("/input/3").asText()).isEqualTo(SPEC.promptText());
        JsonNode rerank = body(ApiKind.RERANK, new RequestOptions(ApiKind.RERANK, "r", false, false, null, 3, null, 0));
        assertThat(rerank.get("query").asText()).isEqualTo("Be brief.");
        assertThat(rerank.get("documents")).hasSize(3);
    }

    @Test
    void chatImagesArePngDataUrlsOfTheGivenSizeSameForTheSameSeedAndRequest() throws Exception {
        ImageInputs images = ImageInputs.parse("2:16x8");
        RequestOptions seeded = new RequestOptions(ApiKind.CHAT, "v", true, false, null, 1, images, 42);
        JsonNode chat = body(ApiKind.CHAT, seeded);
        JsonNode parts = chat.at("/messages/1/content");
        assertThat(chat.at("/messages/0/content").asText()).isEqualTo("Be brief.");
        assertThat(parts).hasSize(3);
        assertThat(parts.at("/0/text").asText()).isEqualTo("Why is the sky blue?");
        String url = parts.at("/1/image_url/url").asText();
        assertThat(url).startsWith("data:image/png;base64,");
        BufferedImage image = ImageIO.read(
                new ByteArrayInputStream(Base64.getDecoder().decode(url.substring("data:image/png;base64,".length()))));
        assertThat(image.getWidth()).isEqualTo(16);
        assertThat(image.getHeight()).isEqualTo(8);
        assertThat(parts.at("/2/image_url/url").asText()).isNotEqualTo(url);

        assertThat(body(ApiKind.CHAT, seeded)).isEqualTo(chat);
        assertThat(body(ApiKind.CHAT, new RequestOptions(ApiKind.CHAT, "v", true, false, null, 1, images, 43))
                        .at("/messages/1/content/1/image_url/url")
                        .asText())
                .isNotEqualTo(url);
    }

    @Test
    void badImageAndBatchOptionsAreOneLineErrors() {
        assertThatThrownBy(() -> ImageInputs.parse("2x512x512"))
                .hasMessage("--images expects N:WxH (e.g. 1:512x512), got '2x512x512'");
        assertThatThrownBy(() -> ImageInputs.parse("1:0x5")).hasMessageContaining("pixels a side");
        assertThatThrownBy(
                        () -> new RequestOptions(ApiKind.TGI, "m", true, false, null, 1, ImageInputs.parse("1:8x8"), 0))
                .hasMessage("--images needs --api chat");
        assertThatThrownBy(() -> ApiKind.parse("vllm"))
                .hasMessageStartingWith("unknown API 'vllm' (expected one of chat, completions, tgi");
    }
}
