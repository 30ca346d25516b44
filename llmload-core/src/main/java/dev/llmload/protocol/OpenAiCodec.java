package dev.llmload.protocol;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Encodes request bodies for the OpenAI chat and completions APIs and decodes their response
 * chunks. Decoding walks the JSON with Jackson's streaming parser and keeps only the fields
 * llmload measures, so a chunk costs no tree of objects. Stateless and thread-safe.
 */
public final class OpenAiCodec {

    private static final JsonFactory JSON = new JsonFactory();

    private final RequestOptions options;

    public OpenAiCodec(RequestOptions options) {
        this.options = options;
    }

    public RequestOptions options() {
        return options;
    }

    public String path() {
        return options.api().path();
    }

    /** The JSON body for one request. */
    public byte[] encode(RequestSpec spec) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + spec.inputTokens() * 6);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeStringField("model", options.model());
            if (options.api() == ApiKind.CHAT) {
                json.writeArrayFieldStart("messages");
                for (ChatMessage message : spec.messages()) {
                    json.writeStartObject();
                    json.writeStringField("role", message.role());
                    json.writeStringField("content", message.content());
                    json.writeEndObject();
                }
                json.writeEndArray();
                // Servers differ in which name they honour; vLLM, SGLang and OpenAI accept both on chat.
                json.writeNumberField("max_completion_tokens", spec.maxOutputTokens());
            } else {
                json.writeStringField("prompt", spec.promptText());
            }
            json.writeNumberField("max_tokens", spec.maxOutputTokens());
            if (options.ignoreEos()) {
                json.writeBooleanField("ignore_eos", true);
            }
            if (options.temperature() != null) {
                json.writeNumberField("temperature", options.temperature());
            }
            json.writeBooleanField("stream", options.stream());
            if (options.stream()) {
                json.writeObjectFieldStart("stream_options");
                json.writeBooleanField("include_usage", true);
                json.writeEndObject();
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Decodes one JSON chunk (an SSE event's data, or a whole non-streamed body).
     *
     * @throws MalformedChunkException when the text is not a JSON object
     */
    public StreamChunk decode(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            return readChunk(parser);
        } catch (IOException | RuntimeException e) {
            throw new MalformedChunkException("not a valid JSON chunk: " + abbreviate(json), e);
        }
    }

    public StreamChunk decode(byte[] json) {
        try (JsonParser parser = JSON.createParser(json)) {
            return readChunk(parser);
        } catch (IOException | RuntimeException e) {
            throw new MalformedChunkException("not a valid JSON body: " + abbreviate(new String(json, java.nio.charset.StandardCharsets.UTF_8)), e);
        }
    }

    private static StreamChunk readChunk(JsonParser parser) throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException("expected a JSON object");
        }
        ChunkFields fields = new ChunkFields();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "choices" -> readChoices(parser, value, fields);
                case "usage" -> readUsage(parser, value, fields);
                case "error" -> fields.error = readError(parser, value);
                default -> parser.skipChildren();
            }
        }
        if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
            throw new IOException("unexpected content after the JSON object");
        }
        StreamChunk.Usage usage = fields.hasUsage ? new StreamChunk.Usage(fields.promptTokens, fields.completionTokens) : null;
        return new StreamChunk(fields.content, fields.reasoning, fields.finishReason, usage, fields.error);
    }

    private static final class ChunkFields {
        String content;
        String reasoning;
        String finishReason;
        String error;
        boolean hasUsage;
        int promptTokens = -1;
        int completionTokens = -1;
    }

    private static void readChoices(JsonParser parser, JsonToken value, ChunkFields fields) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            parser.skipChildren();
            return;
        }
        while (parser.nextToken() == JsonToken.START_OBJECT) {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                switch (name) {
                    case "delta", "message" -> readMessage(parser, token, fields);
                    case "text" -> fields.content = append(fields.content, stringOrNull(parser, token));
                    case "finish_reason" -> {
                        String reason = stringOrNull(parser, token);
                        if (reason != null) {
                            fields.finishReason = reason;
                        }
                    }
                    default -> parser.skipChildren();
                }
            }
        }
    }

    private static void readMessage(JsonParser parser, JsonToken token, ChunkFields fields) throws IOException {
        if (token != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "content" -> fields.content = append(fields.content, stringOrNull(parser, value));
                case "reasoning", "reasoning_content" ->
                        fields.reasoning = append(fields.reasoning, stringOrNull(parser, value));
                default -> parser.skipChildren();
            }
        }
    }

    private static void readUsage(JsonParser parser, JsonToken value, ChunkFields fields) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return;
        }
        fields.hasUsage = true;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            switch (name) {
                case "prompt_tokens" -> fields.promptTokens = token.isNumeric() ? parser.getIntValue() : -1;
                case "completion_tokens" -> fields.completionTokens = token.isNumeric() ? parser.getIntValue() : -1;
                default -> parser.skipChildren();
            }
        }
    }

    private static String readError(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return parser.getText();
        }
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return value == JsonToken.VALUE_NULL ? null : "error";
        }
        String message = null;
        String code = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            switch (name) {
                case "message" -> message = stringOrNull(parser, token);
                case "code" -> code = token.isScalarValue() && token != JsonToken.VALUE_NULL ? parser.getText() : null;
                default -> parser.skipChildren();
            }
        }
        String text = message == null ? "error" : message;
        return code == null ? text : text + " (code " + code + ")";
    }

    private static String stringOrNull(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_STRING) {
            return parser.getText();
        }
        parser.skipChildren();
        return null;
    }

    private static String append(String existing, String more) {
        if (more == null) {
            return existing;
        }
        return existing == null ? more : existing + more;
    }

    static String abbreviate(String text) {
        String oneLine = text.replaceAll("[\\r\\n]+", " ");
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }

    /** A chunk that is not the JSON the API promises: the request fails with class {@code protocol}. */
    public static final class MalformedChunkException extends RuntimeException {
        MalformedChunkException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
