package dev.llmload.protocol;

import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;

/**
 * Hugging Face TGI's native {@code POST /generate_stream}: SSE ({@code data:} without a space) of
 * one token per event, no {@code [DONE]}; the last event carries {@code details} (finish reason,
 * {@code generated_tokens}, {@code input_length}), which is the end marker. Special tokens (the
 * end-of-sequence token) are counted but carry no text. Errors arrive as an event
 * {@code {"error": ..., "error_type": ...}}, or as that body with an HTTP error status.
 */
public final class TgiDialect extends NativeDialect {

    private static final byte[] SAMPLE_STREAM = ("""
            data:{"index":1,"token":{"id":578,"text":" warm","logprob":-0.1,"special":false},"generated_text":null,"details":null}

            data:{"index":2,"token":{"id":579,"text":" up","logprob":-0.1,"special":false},"generated_text":null,"details":null}

            data:{"index":3,"token":{"id":2,"text":"</s>","logprob":0.0,"special":true},"generated_text":" warm up","details":{"finish_reason":"eos_token","generated_tokens":3,"seed":null,"input_length":4}}

            """).getBytes(StandardCharsets.UTF_8);

    TgiDialect(RequestOptions options) {
        super(options, Framing.SSE, "a final event with details", SAMPLE_STREAM, Decoder::new);
    }

    @Override
    byte[] body(RequestSpec spec) {
        return JsonFields.write(128 + spec.inputTokens() * 6, json -> {
            json.writeStartObject();
            json.writeStringField("inputs", spec.promptText());
            json.writeObjectFieldStart("parameters");
            json.writeNumberField("max_new_tokens", spec.maxOutputTokens());
            json.writeBooleanField("details", true);
            if (options.ignoreEos()) {
                // Not TGI's own parameter (TGI ignores it); servers and the simulator that honour it do.
                json.writeBooleanField("ignore_eos", true);
            }
            // TGI refuses a temperature of 0: greedy decoding is its default without sampling.
            if (options.temperature() != null && options.temperature() > 0) {
                json.writeBooleanField("do_sample", true);
                json.writeNumberField("temperature", options.temperature());
            }
            options.extras().writeSampling(json, "stop");
            json.writeEndObject();
            json.writeBooleanField("stream", true);
            json.writeEndObject();
        });
    }

    private static final class Decoder extends FieldsDecoder {

        private static final int TOKEN = 0;
        private static final int TEXT = 1;
        private static final int SPECIAL = 2;
        private static final int DETAILS = 3;
        private static final int FINISH = 4;
        private static final int GENERATED = 5;
        private static final int INPUT = 6;
        private static final int ERROR = 7;
        private static final int ERROR_TYPE = 8;

        Decoder(ResponseEvents events) {
            super(
                    events,
                    new JsonFields(
                            "token",
                            "token.text",
                            "token.special",
                            "details",
                            "details.finish_reason",
                            "details.generated_tokens",
                            "details.input_length",
                            "error",
                            "error_type"));
        }

        @Override
        String error() {
            String message = fields.error(ERROR, -1);
            String type = fields.text(ERROR_TYPE);
            return message == null || type == null ? message : message + " (" + type + ")";
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            fields.read(data, offset, length, "not a valid TGI event");
            String error = error();
            if (error != null) {
                events.error(error);
                return;
            }
            if (!fields.isObject(TOKEN) || fields.text(TEXT) == null) {
                throw fields.malformed("TGI event without a token text");
            }
            String text = fields.nonEmptyText(TEXT);
            if (text != null && !fields.isTrue(SPECIAL)) {
                events.text(text, null, nanos);
                events.tokenCount(1);
            }
            if (fields.isObject(DETAILS)) {
                events.usage(new Usage(fields.count(INPUT), fields.count(GENERATED)));
                String reason = fields.text(FINISH);
                if (reason != null) {
                    events.finishReason(reason);
                }
                events.endMarker();
            }
        }

        @Override
        public void body(byte[] body, long nanos) {
            throw JsonFields.malformed(
                    "TGI answered /generate_stream with a body that is not a stream", body, 0, body.length, null);
        }
    }
}
