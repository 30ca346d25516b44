package dev.llmload.protocol;

import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;

/**
 * Triton's generate extension, {@code POST /v2/models/<model>/generate_stream} (TensorRT-LLM
 * backends): SSE of JSON objects whose {@code text_output} is the new text. Triton sends no end
 * marker and no token counts: the answer ends with the body's own clean end (a connection lost
 * midway is still a {@code protocol} failure), and the local tokenizer counts. Whether
 * {@code text_output} is the new text or all text so far depends on the model's configuration,
 * so the second text event decides: when it starts with the first, the stream is cumulative and
 * each event's new suffix is its text. Errors arrive as {@code {"error": "..."}}, also after a 200.
 */
public final class TritonDialect extends NativeDialect {

    private static final byte[] SAMPLE_STREAM = ("""
            data: {"model_name":"ensemble","model_version":"1","sequence_end":false,"sequence_id":0,"sequence_start":false,"text_output":" warm"}

            data: {"model_name":"ensemble","model_version":"1","sequence_end":false,"sequence_id":0,"sequence_start":false,"text_output":" up"}

            """).getBytes(StandardCharsets.UTF_8);

    TritonDialect(RequestOptions options) {
        super(options, Framing.SSE, null, SAMPLE_STREAM, Decoder::new);
    }

    @Override
    byte[] body(RequestSpec spec) {
        return JsonFields.write(128 + spec.inputTokens() * 6, json -> {
            json.writeStartObject();
            json.writeStringField("text_input", spec.promptText());
            json.writeNumberField("max_tokens", spec.maxOutputTokens());
            if (options.temperature() != null) {
                json.writeNumberField("temperature", options.temperature());
            }
            options.extras().writeSampling(json, "stop");
            if (options.ignoreEos()) {
                // A request parameter, not a model input: a backend that does not know it ignores it.
                json.writeObjectFieldStart("parameters");
                json.writeBooleanField("ignore_eos", true);
                json.writeEndObject();
            }
            json.writeBooleanField("stream", true);
            json.writeEndObject();
        });
    }

    /** None: the body's clean end ends the answer. */
    private static final class Decoder extends FieldsDecoder {

        private static final int TEXT = 0;
        private static final int ERROR = 1;

        /** The first text, until the second decides whether the stream is cumulative. */
        private String firstText;

        private boolean decided;
        private boolean cumulative;
        /** For a cumulative stream: the length of the text seen so far. */
        private int seenChars;

        Decoder(ResponseEvents events) {
            super(events, new JsonFields("text_output", "error"));
        }

        @Override
        String error() {
            return fields.error(ERROR, -1);
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            fields.read(data, offset, length, "not a valid Triton event");
            String error = fields.error(ERROR, -1);
            if (error != null) {
                events.error(error);
                return;
            }
            String text = fields.text(TEXT);
            if (text == null) {
                throw fields.malformed("Triton event without text_output");
            }
            if (text.isEmpty()) {
                return;
            }
            if (firstText == null && !decided) {
                firstText = text;
                seenChars = text.length();
                events.text(text, null, nanos);
                return;
            }
            if (!decided) {
                decided = true;
                cumulative = text.length() > firstText.length() && text.startsWith(firstText);
                firstText = null;
            }
            String fresh = text;
            if (cumulative) {
                if (text.length() < seenChars) {
                    throw fields.malformed("Triton's cumulative text_output got shorter");
                }
                fresh = text.substring(seenChars);
                seenChars = text.length();
            }
            if (!fresh.isEmpty()) {
                events.text(fresh, null, nanos);
            }
        }

        @Override
        public void body(byte[] body, long nanos) {
            fields.read(body, "not a valid Triton answer");
            String error = fields.error(ERROR, -1);
            if (error != null) {
                events.error(error);
                return;
            }
            String text = fields.nonEmptyText(TEXT);
            if (text != null) {
                events.text(text, null, nanos);
            }
        }
    }
}
