package dev.llmload.protocol;

import com.fasterxml.jackson.core.JsonToken;
import dev.llmload.record.ServerTimings;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;

/**
 * Ollama's native API, {@code POST /api/generate} ({@code response}, {@code thinking}) and
 * {@code POST /api/chat} ({@code message.content}, {@code message.thinking}): newline-delimited
 * JSON, one object per line. The object with {@code "done": true} is the end marker and carries
 * the counts ({@code prompt_eval_count}, {@code eval_count}) and the server's own durations in
 * nanoseconds ({@code load_duration}, {@code prompt_eval_duration}, {@code eval_duration},
 * {@code total_duration}). Errors are a line (or body) {@code {"error": "..."}}.
 */
public final class OllamaDialect extends NativeDialect {

    private static final double NANOS_PER_MS = 1_000_000.0;

    private static final byte[] SAMPLE_STREAM = ("""
            {"model":"m","created_at":"2026-01-01T00:00:00Z","response":" warm","message":{"role":"assistant","content":" warm"},"done":false}
            {"model":"m","created_at":"2026-01-01T00:00:00Z","thinking":" up","message":{"role":"assistant","content":"","thinking":" up"},"done":false}
            {"model":"m","created_at":"2026-01-01T00:00:00Z","response":"","message":{"role":"assistant","content":""},"done":true,"done_reason":"length","total_duration":9000000,"load_duration":1000000,"prompt_eval_count":4,"prompt_eval_duration":2000000,"eval_count":2,"eval_duration":5000000}
            """).getBytes(StandardCharsets.UTF_8);

    private final boolean chat;

    OllamaDialect(RequestOptions options) {
        super(
                options,
                Framing.NDJSON,
                "a final line with \"done\": true",
                SAMPLE_STREAM,
                events -> new Decoder(events, options.api() == ApiKind.OLLAMA_CHAT));
        this.chat = options.api() == ApiKind.OLLAMA_CHAT;
    }

    @Override
    byte[] body(RequestSpec spec) {
        return JsonFields.write(128 + spec.inputTokens() * 6, json -> {
            json.writeStartObject();
            json.writeStringField("model", options.model());
            if (chat) {
                json.writeArrayFieldStart("messages");
                for (ChatMessage message : spec.messages()) {
                    json.writeStartObject();
                    json.writeStringField("role", message.role());
                    json.writeStringField("content", message.content());
                    json.writeEndObject();
                }
                json.writeEndArray();
            } else {
                json.writeStringField("prompt", spec.promptText());
            }
            json.writeBooleanField("stream", options.stream());
            json.writeObjectFieldStart("options");
            json.writeNumberField("num_predict", spec.maxOutputTokens());
            // ignore_eos is not an Ollama option (Ollama ignores unknown ones); the simulator honours it.
            options.writeGeneration(json, "stop");
            json.writeEndObject();
            json.writeEndObject();
        });
    }

    private static final class Decoder extends FieldsDecoder {

        private static final int RESPONSE = 0;
        private static final int THINKING = 1;
        private static final int CONTENT = 2;
        private static final int MESSAGE_THINKING = 3;
        private static final int DONE = 4;
        private static final int DONE_REASON = 5;
        private static final int PROMPT_COUNT = 6;
        private static final int EVAL_COUNT = 7;
        private static final int LOAD = 8;
        private static final int PROMPT_DURATION = 9;
        private static final int EVAL_DURATION = 10;
        private static final int TOTAL = 11;
        private static final int ERROR = 12;

        private final boolean chat;

        Decoder(ResponseEvents events, boolean chat) {
            super(
                    events,
                    new JsonFields(
                            "response",
                            "thinking",
                            "message.content",
                            "message.thinking",
                            "done",
                            "done_reason",
                            "prompt_eval_count",
                            "eval_count",
                            "load_duration",
                            "prompt_eval_duration",
                            "eval_duration",
                            "total_duration",
                            "error"));
            this.chat = chat;
        }

        @Override
        String error() {
            return fields.error(ERROR, -1);
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            fields.read(data, offset, length, "not a valid Ollama line");
            report(nanos);
        }

        @Override
        public void body(byte[] body, long nanos) {
            fields.read(body, "not a valid Ollama answer");
            report(nanos);
        }

        private void report(long nanos) {
            String error = fields.error(ERROR, -1);
            if (error != null) {
                events.error(error);
                return;
            }
            if (fields.kindIsNot(DONE, JsonToken.VALUE_TRUE, JsonToken.VALUE_FALSE)) {
                throw fields.malformed("Ollama line without a boolean \"done\"");
            }
            String content = fields.nonEmptyText(chat ? CONTENT : RESPONSE);
            String reasoning = fields.nonEmptyText(chat ? MESSAGE_THINKING : THINKING);
            if (content != null || reasoning != null) {
                events.text(content, reasoning, nanos);
            }
            if (fields.isTrue(DONE)) {
                events.usage(new Usage(fields.count(PROMPT_COUNT), fields.count(EVAL_COUNT)));
                String reason = fields.text(DONE_REASON);
                if (reason != null) {
                    events.finishReason(reason);
                }
                events.serverTimings(
                        new ServerTimings(ms(LOAD), ms(PROMPT_DURATION), ms(EVAL_DURATION), ms(TOTAL), -1));
                events.endMarker();
            }
        }

        private double ms(int field) {
            double nanos = fields.number(field);
            return nanos >= 0 ? nanos / NANOS_PER_MS : Double.NaN;
        }
    }
}
