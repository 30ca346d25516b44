package dev.llmload.protocol;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;

/**
 * The OpenAI Responses API, {@code POST /v1/responses}: named SSE events, no {@code [DONE]}.
 * {@code response.output_text.delta} carries answer text, {@code response.reasoning_text.delta}
 * and {@code response.reasoning_summary_text.delta} reasoning; {@code response.completed} (or
 * {@code response.incomplete}, when a limit stopped it) is the end marker and carries
 * {@code response.usage}. {@code response.failed} and {@code error} are errors.
 */
public final class ResponsesDialect extends NativeDialect {

    private static final byte[] SAMPLE_STREAM = ("""
            event: response.created
            data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_x","object":"response","status":"in_progress","output":[]}}

            event: response.reasoning_text.delta
            data: {"type":"response.reasoning_text.delta","sequence_number":1,"item_id":"rs_x","output_index":0,"content_index":0,"delta":" warm"}

            event: response.output_text.delta
            data: {"type":"response.output_text.delta","sequence_number":2,"item_id":"msg_x","output_index":1,"content_index":0,"delta":" up"}

            event: response.completed
            data: {"type":"response.completed","sequence_number":3,"response":{"id":"resp_x","object":"response","status":"completed","usage":{"input_tokens":4,"output_tokens":2,"total_tokens":6}}}

            """).getBytes(StandardCharsets.UTF_8);

    ResponsesDialect(RequestOptions options) {
        super(options, Framing.SSE, "event: response.completed", SAMPLE_STREAM, Decoder::new);
    }

    @Override
    byte[] body(RequestSpec spec) {
        return JsonFields.write(128 + spec.inputTokens() * 6, json -> {
            json.writeStartObject();
            json.writeStringField("model", options.model());
            json.writeArrayFieldStart("input");
            for (ChatMessage message : spec.messages()) {
                json.writeStartObject();
                json.writeStringField("role", message.role());
                json.writeStringField("content", message.content());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberField("max_output_tokens", spec.maxOutputTokens());
            // ignore_eos: vLLM's serving of this API and the simulator honour it; the hosted API needs --no-ignore-eos.
            options.writeGeneration(json, "stop");
            json.writeBooleanField("stream", options.stream());
            json.writeEndObject();
        });
    }

    private static final class Decoder extends FieldsDecoder {

        private static final int TYPE = 0;
        private static final int DELTA = 1;
        private static final int INPUT = 2;
        private static final int OUTPUT = 3;
        private static final int STATUS = 4;
        private static final int INCOMPLETE_REASON = 5;
        private static final int RESPONSE_ERROR = 6;
        private static final int RESPONSE_ERROR_MESSAGE = 7;
        private static final int MESSAGE = 8;
        static final int ERROR = 9;
        static final int ERROR_MESSAGE = 10;
        private static final int BODY_INPUT = 11;
        private static final int BODY_OUTPUT = 12;

        Decoder(ResponseEvents events) {
            super(
                    events,
                    new JsonFields(
                            "type",
                            "delta",
                            "response.usage.input_tokens",
                            "response.usage.output_tokens",
                            "response.status",
                            "response.incomplete_details.reason",
                            "response.error",
                            "response.error.message",
                            "message",
                            "error",
                            "error.message",
                            "usage.input_tokens",
                            "usage.output_tokens"));
        }

        @Override
        String error() {
            return fields.error(ERROR, ERROR_MESSAGE);
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            fields.read(data, offset, length, "not a valid Responses event");
            String type = eventType != null ? eventType : fields.text(TYPE);
            if (type == null) {
                throw fields.malformed("Responses event without a type");
            }
            switch (type) {
                case "response.output_text.delta" -> {
                    String text = fields.nonEmptyText(DELTA);
                    if (text != null) {
                        events.text(text, null, nanos);
                    }
                }
                case "response.reasoning_text.delta", "response.reasoning_summary_text.delta" -> {
                    String text = fields.nonEmptyText(DELTA);
                    if (text != null) {
                        events.text(null, text, nanos);
                    }
                }
                case "response.completed", "response.incomplete" -> {
                    events.usage(new Usage(fields.count(INPUT), fields.count(OUTPUT)));
                    String reason = fields.text(INCOMPLETE_REASON);
                    String status = fields.text(STATUS);
                    if (reason != null || status != null) {
                        events.finishReason(reason != null ? reason : status);
                    }
                    events.endMarker();
                }
                case "response.failed" -> {
                    String error = fields.error(RESPONSE_ERROR, RESPONSE_ERROR_MESSAGE);
                    events.error(error != null ? error : "response.failed");
                }
                case "error" -> {
                    String message = fields.text(MESSAGE);
                    String error = message != null ? message : fields.error(ERROR, ERROR_MESSAGE);
                    events.error(error != null ? error : "error");
                }
                default -> {
                    // created, in_progress, output_item.*, content_part.*, *.done: nothing measured.
                }
            }
        }

        /** A whole response (not streamed): only its usage is read. */
        @Override
        public void body(byte[] body, long nanos) {
            fields.read(body, "not a valid Responses answer");
            String error = fields.error(ERROR, ERROR_MESSAGE);
            if (error != null) {
                events.error(error);
                return;
            }
            events.usage(new Usage(fields.count(BODY_INPUT), fields.count(BODY_OUTPUT)));
        }
    }
}
