package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields of an OpenAI chat or completions request body that the simulator uses. Parsing is
 * pure; a bad body throws {@link IllegalArgumentException} whose message becomes the 400's.
 *
 * @param promptText     the chat messages' text contents concatenated, or the completion prompt
 * @param promptTokenIds the prompt as token ids when the client sent ids, else null (tokenise the text)
 * @param maxTokens      {@code max_completion_tokens} or {@code max_tokens}; null when absent
 */
record CompletionRequest(
        boolean chat,
        String model,
        String promptText,
        int[] promptTokenIds,
        int numMessages,
        Integer maxTokens,
        int minTokens,
        boolean ignoreEos,
        boolean stream,
        boolean includeUsage) {

    static CompletionRequest parse(boolean chat, JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new IllegalArgumentException("the request body must be a JSON object");
        }
        String model = body.path("model").isTextual() ? body.get("model").asText() : null;
        StringBuilder text = new StringBuilder();
        int[] ids = null;
        int numMessages;
        if (chat) {
            JsonNode messages = body.get("messages");
            if (messages == null || !messages.isArray() || messages.isEmpty()) {
                throw new IllegalArgumentException("'messages' must be a non-empty array");
            }
            for (JsonNode message : messages) {
                appendContent(text, message.get("content"));
            }
            numMessages = messages.size();
        } else {
            JsonNode prompt = body.get("prompt");
            if (prompt == null || prompt.isNull()) {
                throw new IllegalArgumentException("'prompt' is required");
            }
            if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isInt()) {
                ids = new int[prompt.size()];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = prompt.get(i).asInt();
                }
            } else {
                appendContent(text, prompt);
            }
            numMessages = 1;
        }
        Integer maxTokens = optionalInt(body, chat && body.hasNonNull("max_completion_tokens")
                ? "max_completion_tokens" : "max_tokens");
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens must be at least 1, got " + maxTokens + ".");
        }
        Integer minTokens = optionalInt(body, "min_tokens");
        int min = minTokens == null ? 0 : minTokens;
        if (min < 0 || (maxTokens != null && min > maxTokens)) {
            throw new IllegalArgumentException("min_tokens must be between 0 and max_tokens, got " + min + ".");
        }
        return new CompletionRequest(chat, model, text.toString(), ids, numMessages, maxTokens, min,
                body.path("ignore_eos").asBoolean(false), body.path("stream").asBoolean(false),
                body.path("stream_options").path("include_usage").asBoolean(false));
    }

    /** A content is a string, or an array of strings or of {@code {"type":"text","text":...}} parts. */
    private static void appendContent(StringBuilder text, JsonNode content) {
        if (content == null || content.isNull()) {
            return;
        }
        if (content.isTextual()) {
            separate(text).append(content.asText());
        } else if (content.isArray()) {
            for (JsonNode part : content) {
                if (part.isTextual()) {
                    separate(text).append(part.asText());
                } else if (part.path("text").isTextual()) {
                    separate(text).append(part.get("text").asText());
                }
            }
        } else {
            throw new IllegalArgumentException("a message content or prompt must be a string or an array");
        }
    }

    private static StringBuilder separate(StringBuilder text) {
        return text.isEmpty() ? text : text.append('\n');
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
}
