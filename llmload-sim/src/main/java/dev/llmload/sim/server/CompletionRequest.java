package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Base64;

/**
 * The fields of a request body that the simulator uses, read from whichever API's shape it came
 * in (see {@link SimApi}). Parsing is pure; a bad body throws {@link IllegalArgumentException}
 * whose message becomes the 400's.
 *
 * @param promptText     the messages' text contents concatenated, or the prompt, input or query
 *                       and documents
 * @param promptTokenIds the prompt as token ids when the client sent ids, else null (tokenise the text)
 * @param imageTokens    tokens the request's images stand for: ceil(w/28) × ceil(h/28) each, read
 *                       from the PNG or JPEG header of every data-URL or base64 image
 * @param inputs         the number of inputs of an embeddings or rerank request (its batch), else 1
 * @param maxTokens      the API's output limit ({@code max_tokens}, {@code max_new_tokens},
 *                       {@code num_predict}, ...); null when absent
 */
record CompletionRequest(
        SimApi api,
        String model,
        String promptText,
        int[] promptTokenIds,
        int imageTokens,
        int numMessages,
        int inputs,
        Integer maxTokens,
        int minTokens,
        boolean ignoreEos,
        boolean stream,
        boolean includeUsage) {

    /** Pixels per side of one image token, as a 28×28 patch of a ViT-style encoder. */
    static final int IMAGE_PATCH_PIXELS = 28;

    boolean chat() {
        return api == SimApi.CHAT;
    }

    /** Reads an OpenAI chat ({@code chat} true) or completions body. */
    static CompletionRequest parse(boolean chat, JsonNode body) {
        return parse(chat ? SimApi.CHAT : SimApi.COMPLETIONS, chat ? "/v1/chat/completions" : "/v1/completions", body);
    }

    static CompletionRequest parse(SimApi api, String path, JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new IllegalArgumentException("the request body must be a JSON object");
        }
        String model = body.path("model").isTextual()
                ? body.get("model").asText()
                : api == SimApi.TRITON ? path.split("/")[3] : null;
        Prompt prompt = new Prompt();
        int numMessages = 1;
        int inputs = 1;
        switch (api) {
            case CHAT, OLLAMA_CHAT, ANTHROPIC -> {
                if (api == SimApi.ANTHROPIC && body.hasNonNull("system")) {
                    prompt.content(body.get("system"));
                }
                JsonNode messages = body.get("messages");
                if (messages == null || !messages.isArray() || messages.isEmpty()) {
                    throw new IllegalArgumentException("'messages' must be a non-empty array");
                }
                for (JsonNode message : messages) {
                    prompt.content(message.get("content"));
                    for (JsonNode image : message.path("images")) {
                        prompt.image(image.asText());
                    }
                }
                numMessages = messages.size();
            }
            case RESPONSES -> {
                JsonNode input = required(body, "input");
                if (input.isArray()) {
                    for (JsonNode item : input) {
                        prompt.content(item.isTextual() ? item : item.get("content"));
                    }
                    numMessages = input.size();
                } else {
                    prompt.content(input);
                }
            }
            case COMPLETIONS, LLAMACPP -> prompt.textOrIds(required(body, "prompt"));
            case OLLAMA -> {
                prompt.content(required(body, "prompt"));
                for (JsonNode image : body.path("images")) {
                    prompt.image(image.asText());
                }
            }
            case TGI -> prompt.content(required(body, "inputs"));
            case TRITON -> prompt.content(required(body, "text_input"));
            case SGLANG -> prompt.textOrIds(body.has("input_ids") ? body.get("input_ids") : required(body, "text"));
            case EMBEDDINGS -> {
                JsonNode input = required(body, "input");
                boolean batchOfTexts =
                        input.isArray() && !input.isEmpty() && !input.get(0).isInt();
                inputs = batchOfTexts ? input.size() : 1;
                prompt.textOrIds(input);
            }
            case RERANK -> {
                prompt.content(required(body, "query"));
                JsonNode documents = required(body, "documents");
                if (!documents.isArray() || documents.isEmpty()) {
                    throw new IllegalArgumentException("'documents' must be a non-empty array");
                }
                for (JsonNode document : documents) {
                    prompt.content(document.isTextual() ? document : document.get("text"));
                }
                inputs = documents.size();
            }
        }
        Integer maxTokens = switch (api) {
            case CHAT ->
                optionalInt(body, body.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens");
            case TGI -> optionalInt(body.path("parameters"), "max_new_tokens");
            case TRITON ->
                body.hasNonNull("max_tokens")
                        ? optionalInt(body, "max_tokens")
                        : optionalInt(body.path("parameters"), "max_tokens");
            case OLLAMA, OLLAMA_CHAT -> optionalInt(body.path("options"), "num_predict");
            case LLAMACPP -> optionalInt(body, "n_predict");
            case SGLANG -> optionalInt(body.path("sampling_params"), "max_new_tokens");
            case RESPONSES -> optionalInt(body, "max_output_tokens");
            case ANTHROPIC -> optionalInt(body, required(body, "max_tokens") == null ? null : "max_tokens");
            case EMBEDDINGS, RERANK -> 1;
            default -> optionalInt(body, "max_tokens");
        };
        // llama.cpp and Ollama take -1 for "until the context is full".
        if (maxTokens != null
                && maxTokens < 0
                && (api == SimApi.LLAMACPP || api == SimApi.OLLAMA || api == SimApi.OLLAMA_CHAT)) {
            maxTokens = null;
        }
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens must be at least 1, got " + maxTokens + ".");
        }
        JsonNode sampling = switch (api) {
            case SGLANG -> body.path("sampling_params");
            case TGI, TRITON -> body.path("parameters");
            case OLLAMA, OLLAMA_CHAT -> body.path("options");
            default -> body;
        };
        Integer minTokens = optionalInt(sampling, api == SimApi.SGLANG ? "min_new_tokens" : "min_tokens");
        int min = minTokens == null ? 0 : minTokens;
        if (min < 0 || (maxTokens != null && min > maxTokens)) {
            throw new IllegalArgumentException("min_tokens must be between 0 and max_tokens, got " + min + ".");
        }
        // ignore_eos is vLLM's, SGLang's and llama.cpp's; the simulator takes it beside every API's
        // sampling fields too, so one workload can ask for exact lengths through each of them.
        boolean ignoreEos =
                sampling.path("ignore_eos").asBoolean(body.path("ignore_eos").asBoolean(false)) || !api.generates();
        return new CompletionRequest(
                api,
                model,
                prompt.text.toString(),
                prompt.ids,
                prompt.imageTokens,
                numMessages,
                inputs,
                maxTokens,
                min,
                ignoreEos,
                api.streams(path, body),
                body.path("stream_options").path("include_usage").asBoolean(false));
    }

    private static JsonNode required(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            throw new IllegalArgumentException("'" + field + "' is required");
        }
        return node;
    }

    private static Integer optionalInt(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber()) {
            throw new IllegalArgumentException("'" + field + "' must be an integer");
        }
        return node.asInt();
    }

    /** The prompt as it is read: text, or token ids, and the tokens of its images. */
    private static final class Prompt {
        private final StringBuilder text = new StringBuilder();
        private int[] ids;
        private int imageTokens;

        /** A string, a list of strings or token ids, as {@code prompt} and {@code input} may be. */
        void textOrIds(JsonNode value) {
            if (value.isArray() && !value.isEmpty() && value.get(0).isInt()) {
                ids = new int[value.size()];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = value.get(i).asInt();
                }
            } else {
                content(value);
            }
        }

        /**
         * A content: a string, or an array of strings and parts. Text parts are
         * {@code {"type":"text"|"input_text","text":...}}; image parts are OpenAI's
         * {@code image_url} (a data URL), Anthropic's {@code image} (base64 {@code source.data})
         * and the Responses API's {@code input_image}.
         */
        void content(JsonNode content) {
            if (content == null || content.isNull()) {
                return;
            }
            if (content.isTextual()) {
                separate().append(content.asText());
            } else if (content.isArray()) {
                for (JsonNode part : content) {
                    if (part.isTextual()) {
                        separate().append(part.asText());
                    } else if (part.path("text").isTextual()) {
                        separate().append(part.get("text").asText());
                    } else if (part.path("image_url").path("url").isTextual()) {
                        image(part.get("image_url").get("url").asText());
                    } else if (part.path("image_url").isTextual()) {
                        image(part.get("image_url").asText());
                    } else if (part.path("source").path("data").isTextual()) {
                        image(part.get("source").get("data").asText());
                    }
                }
            } else {
                throw new IllegalArgumentException("a message content or prompt must be a string or an array");
            }
        }

        /** An image as a data URL or bare base64 of a PNG or JPEG. */
        void image(String dataUrlOrBase64) {
            int comma = dataUrlOrBase64.indexOf(',');
            String base64 = dataUrlOrBase64.startsWith("data:") && comma > 0
                    ? dataUrlOrBase64.substring(comma + 1)
                    : dataUrlOrBase64;
            byte[] bytes;
            try {
                bytes = Base64.getMimeDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("an image is not base64: " + e.getMessage());
            }
            int[] size = ImageSize.of(bytes);
            imageTokens += ceilDiv(size[0]) * ceilDiv(size[1]);
        }

        private static int ceilDiv(int pixels) {
            return (pixels + IMAGE_PATCH_PIXELS - 1) / IMAGE_PATCH_PIXELS;
        }

        private StringBuilder separate() {
            return text.isEmpty() ? text : text.append('\n');
        }
    }
}
