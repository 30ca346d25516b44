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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The OpenAI chat and completions APIs: request bodies with {@code stream_options.include_usage},
 * answers as SSE events of JSON chunks ended by {@code data: [DONE]}, errors as an
 * {@code error} object. Decoding walks each event's bytes with the thread's reused Jackson parser
 * ({@link MessageParser}: field names are canonical strings found, not made) and keeps only the
 * fields llmload measures: a chunk costs no tree of objects, no parser, and no string but the text
 * it carries.
 */
public final class OpenAiDialect implements Dialect {

    private static final JsonFactory JSON = JsonFields.JSON;
    /** The data of the last event, {@code [DONE]}. */
    private static final byte[] END_MARKER = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private static final byte[] SAMPLE_STREAM = ("""
            data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

            data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" warm"},"finish_reason":null}]}

            data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning_content":" up"},"finish_reason":null}]}

            data: {"id":"x","object":"text_completion","choices":[{"index":0,"text":" text","finish_reason":"length"}],"usage":null}

            data: {"id":"x","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":3,"total_tokens":11}}

            data: [DONE]

            """).getBytes(StandardCharsets.UTF_8);

    private final RequestOptions options;

    OpenAiDialect(RequestOptions options) {
        this.options = options;
    }

    @Override
    public RequestOptions options() {
        return options;
    }

    @Override
    public String path() {
        return options.api().path();
    }

    @Override
    public byte[] encode(RequestSpec spec) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + spec.inputTokens() * 6);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeStringField("model", options.model());
            if (options.api() == ApiKind.CHAT) {
                json.writeArrayFieldStart("messages");
                int imagesAt = options.images() == null ? -1 : lastUserMessage(spec);
                for (int m = 0; m < spec.messages().size(); m++) {
                    ChatMessage message = spec.messages().get(m);
                    json.writeStartObject();
                    json.writeStringField("role", message.role());
                    if (m == imagesAt) {
                        writeWithImages(json, message.content(), spec.index());
                    } else {
                        json.writeStringField("content", message.content());
                    }
                    json.writeEndObject();
                }
                json.writeEndArray();
                // Servers differ in which name they honour; vLLM, SGLang and OpenAI accept both on chat.
                json.writeNumberField("max_completion_tokens", spec.maxOutputTokens());
            } else {
                json.writeStringField("prompt", spec.promptText());
            }
            json.writeNumberField("max_tokens", spec.maxOutputTokens());
            options.writeGeneration(json, "stop");
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
        return options.extras().merged(out.toByteArray());
    }

    /** The message the images go with: the last from the user (the question they illustrate). */
    private static int lastUserMessage(RequestSpec spec) {
        for (int m = spec.messages().size() - 1; m >= 0; m--) {
            if (spec.messages().get(m).role().equals("user")) {
                return m;
            }
        }
        return spec.messages().size() - 1;
    }

    /** Content as parts: the text, then each synthetic image as an {@code image_url} data URL. */
    private void writeWithImages(JsonGenerator json, String text, long requestIndex) throws IOException {
        json.writeArrayFieldStart("content");
        json.writeStartObject();
        json.writeStringField("type", "text");
        json.writeStringField("text", text);
        json.writeEndObject();
        for (int i = 0; i < options.images().count(); i++) {
            json.writeStartObject();
            json.writeStringField("type", "image_url");
            json.writeObjectFieldStart("image_url");
            json.writeStringField("url", SyntheticImages.dataUrl(options.images(), options.seed(), requestIndex, i));
            json.writeEndObject();
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    @Override
    public Framing streamFraming() {
        return Framing.SSE;
    }

    @Override
    public ResponseDecoder newDecoder(ResponseEvents events) {
        return new Decoder(events);
    }

    @Override
    public String errorMessage(byte[] body) {
        Chunk chunk = new Chunk();
        try {
            MessageParser.parseWhole(body, chunk);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return chunk.error;
    }

    @Override
    public String endMarker() {
        return "data: [DONE]";
    }

    @Override
    public byte[] sampleStream() {
        return SAMPLE_STREAM.clone();
    }

    /**
     * Reads the chunks of one response. A chunk is an object with {@code choices} (each with a
     * {@code delta} or {@code message} holding {@code content} and {@code reasoning} or
     * {@code reasoning_content}, or with completions' {@code text}, and a {@code finish_reason}),
     * {@code usage} and {@code error}; everything else is skipped unread.
     */
    private static final class Decoder implements ResponseDecoder {

        private final ResponseEvents events;
        /** Scratch space for the chunk being read, reused for every chunk of the response. */
        private final Chunk chunk = new Chunk();

        Decoder(ResponseEvents events) {
            this.events = events;
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            if (Arrays.equals(data, offset, offset + length, END_MARKER, 0, END_MARKER.length)) {
                events.endMarker();
                return;
            }
            try {
                MessageParser.parse(data, offset, length, chunk);
            } catch (IOException | RuntimeException e) {
                throw JsonFields.malformed("not a valid JSON chunk", data, offset, length, e);
            }
            if (chunk.error != null) {
                events.error(chunk.error);
            }
            reportText(nanos);
            if (chunk.finishReason != null) {
                events.finishReason(chunk.finishReason);
            }
            if (chunk.hasUsage) {
                events.usage(new Usage(chunk.promptTokens, chunk.completionTokens));
            }
        }

        /** A body with an error object reports only the error: its other fields are not an answer. */
        @Override
        public void body(byte[] body, long nanos) {
            try {
                MessageParser.parseWhole(body, chunk);
            } catch (IOException | RuntimeException e) {
                throw JsonFields.malformed("not a valid JSON body", body, 0, body.length, e);
            }
            if (chunk.error != null) {
                events.error(chunk.error);
                return;
            }
            if (chunk.hasUsage) {
                events.usage(new Usage(chunk.promptTokens, chunk.completionTokens));
            }
            if (chunk.finishReason != null) {
                events.finishReason(chunk.finishReason);
            }
            reportText(nanos);
        }

        private void reportText(long nanos) {
            String content = nonEmpty(chunk.content);
            String reasoning = nonEmpty(chunk.reasoning);
            if (content != null || reasoning != null) {
                events.text(content, reasoning, nanos);
            }
        }

        private static String nonEmpty(String text) {
            return text == null || text.isEmpty() ? null : text;
        }
    }

    /** The fields of one chunk that llmload measures; absent ones are null (counts -1). */
    private static final class Chunk implements MessageParser.ObjectReader {
        String content;
        String reasoning;
        String finishReason;
        String error;
        boolean hasUsage;
        int promptTokens;
        int completionTokens;

        /** Reads one chunk's object, replacing whatever the previous chunk left here. */
        @Override
        public void readObject(JsonParser parser) throws IOException {
            content = null;
            reasoning = null;
            finishReason = null;
            error = null;
            hasUsage = false;
            promptTokens = -1;
            completionTokens = -1;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "choices" -> readChoices(parser, value);
                    case "usage" -> readUsage(parser, value);
                    case "error" -> error = readError(parser, value);
                    default -> parser.skipChildren();
                }
            }
        }

        private void readChoices(JsonParser parser, JsonToken value) throws IOException {
            if (value != JsonToken.START_ARRAY) {
                parser.skipChildren();
                return;
            }
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    JsonToken token = parser.nextToken();
                    switch (name) {
                        case "delta", "message" -> readMessage(parser, token);
                        case "text" -> content = append(content, stringOrNull(parser, token));
                        case "finish_reason" -> {
                            String reason = stringOrNull(parser, token);
                            if (reason != null) {
                                finishReason = reason;
                            }
                        }
                        default -> parser.skipChildren();
                    }
                }
            }
        }

        private void readMessage(JsonParser parser, JsonToken token) throws IOException {
            if (token != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "content" -> content = append(content, stringOrNull(parser, value));
                    case "reasoning", "reasoning_content" -> reasoning = append(reasoning, stringOrNull(parser, value));
                    default -> parser.skipChildren();
                }
            }
        }

        private void readUsage(JsonParser parser, JsonToken value) throws IOException {
            if (value != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return;
            }
            hasUsage = true;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                switch (name) {
                    case "prompt_tokens" -> promptTokens = token.isNumeric() ? parser.getIntValue() : -1;
                    case "completion_tokens" -> completionTokens = token.isNumeric() ? parser.getIntValue() : -1;
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
                    case "code" ->
                        code = token.isScalarValue() && token != JsonToken.VALUE_NULL ? parser.getText() : null;
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
    }
}
