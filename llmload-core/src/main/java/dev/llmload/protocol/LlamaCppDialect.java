package dev.llmload.protocol;

import com.fasterxml.jackson.core.JsonToken;
import dev.llmload.record.ServerTimings;
import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;

/**
 * llama.cpp's native {@code POST /completion}: SSE of JSON objects whose {@code content} is the
 * new text, no {@code [DONE]}; the event with {@code "stop": true} is the end marker and carries
 * {@code tokens_evaluated}, {@code tokens_predicted}, {@code stop_type} and the server's own
 * {@code timings} ({@code prompt_ms} is prefill, {@code predicted_ms} decode, {@code cache_n}
 * prompt tokens reused from the cache). Errors are {@code {"error": {"message": ...}}}.
 */
public final class LlamaCppDialect extends NativeDialect {

    private static final byte[] SAMPLE_STREAM = ("""
            data: {"index":0,"content":" warm","tokens":[],"stop":false,"id_slot":-1,"tokens_predicted":1,"tokens_evaluated":4}

            data: {"index":0,"content":" up","tokens":[],"stop":false,"id_slot":-1,"tokens_predicted":2,"tokens_evaluated":4}

            data: {"index":0,"content":"","tokens":[],"id_slot":0,"stop":true,"tokens_predicted":2,"tokens_evaluated":4,"stop_type":"limit","timings":{"cache_n":0,"prompt_n":4,"prompt_ms":3.5,"prompt_per_token_ms":0.9,"prompt_per_second":1142.8,"predicted_n":2,"predicted_ms":8.1,"predicted_per_token_ms":4.0,"predicted_per_second":246.9}}

            """).getBytes(StandardCharsets.UTF_8);

    LlamaCppDialect(RequestOptions options) {
        super(options, Framing.SSE, "an event with \"stop\": true", SAMPLE_STREAM, Decoder::new);
    }

    @Override
    byte[] body(RequestSpec spec) {
        return JsonFields.write(128 + spec.inputTokens() * 6, json -> {
            json.writeStartObject();
            json.writeStringField("prompt", spec.promptText());
            json.writeNumberField("n_predict", spec.maxOutputTokens());
            options.writeGeneration(json, "stop");
            json.writeBooleanField("stream", options.stream());
            json.writeEndObject();
        });
    }

    private static final class Decoder extends FieldsDecoder {

        private static final int CONTENT = 0;
        private static final int STOP = 1;
        private static final int STOP_TYPE = 2;
        private static final int EVALUATED = 3;
        private static final int PREDICTED = 4;
        private static final int PROMPT_MS = 5;
        private static final int PREDICTED_MS = 6;
        private static final int CACHE_N = 7;
        private static final int ERROR = 8;
        private static final int ERROR_MESSAGE = 9;

        Decoder(ResponseEvents events) {
            super(
                    events,
                    new JsonFields(
                            "content",
                            "stop",
                            "stop_type",
                            "tokens_evaluated",
                            "tokens_predicted",
                            "timings.prompt_ms",
                            "timings.predicted_ms",
                            "timings.cache_n",
                            "error",
                            "error.message"));
        }

        @Override
        String error() {
            return fields.error(ERROR, ERROR_MESSAGE);
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            fields.read(data, offset, length, "not a valid llama.cpp event");
            report(nanos);
        }

        @Override
        public void body(byte[] body, long nanos) {
            fields.read(body, "not a valid llama.cpp answer");
            report(nanos);
        }

        private void report(long nanos) {
            String error = fields.error(ERROR, ERROR_MESSAGE);
            if (error != null) {
                events.error(error);
                return;
            }
            if (fields.text(CONTENT) == null || fields.kindIsNot(STOP, JsonToken.VALUE_TRUE, JsonToken.VALUE_FALSE)) {
                throw fields.malformed("llama.cpp event without content and stop");
            }
            String content = fields.nonEmptyText(CONTENT);
            if (content != null) {
                events.text(content, null, nanos);
            }
            if (fields.isTrue(STOP)) {
                events.usage(new Usage(fields.count(EVALUATED), fields.count(PREDICTED)));
                String reason = fields.text(STOP_TYPE);
                if (reason != null) {
                    events.finishReason(reason);
                }
                events.serverTimings(new ServerTimings(
                        Double.NaN,
                        fields.number(PROMPT_MS),
                        fields.number(PREDICTED_MS),
                        Double.NaN,
                        fields.count(CACHE_N)));
                events.endMarker();
            }
        }
    }
}
