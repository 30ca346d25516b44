package dev.llmload.protocol;

import dev.llmload.http.KeyHeader;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Anthropic Messages, {@code POST /v1/messages}: named SSE events. {@code content_block_delta}
 * carries a {@code text_delta} (answer) or {@code thinking_delta} (reasoning);
 * {@code message_start} gives {@code usage.input_tokens}, {@code message_delta} the cumulative
 * {@code usage.output_tokens} and the {@code stop_reason}; {@code message_stop} is the end marker;
 * {@code event: error} is an error. The key travels in {@code x-api-key}, with
 * {@code anthropic-version}. System messages become the top-level {@code system} field.
 */
public final class AnthropicDialect extends NativeDialect {

    /** The API version requests ask for; the streaming event shapes read here are this version's. */
    static final String API_VERSION = "2023-06-01";
    /** Headers every request to this API carries besides the key (also the probe's GET of the models). */
    public static final Map<String, String> HEADERS = Map.of("anthropic-version", API_VERSION);

    private static final byte[] SAMPLE_STREAM = ("""
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_x","type":"message","role":"assistant","content":[],"model":"m","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":4,"output_tokens":1}}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" warm"}}

            event: ping
            data: {"type": "ping"}

            event: content_block_delta
            data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" up"}}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":2}}

            event: message_stop
            data: {"type":"message_stop"}

            """).getBytes(StandardCharsets.UTF_8);

    AnthropicDialect(RequestOptions options) {
        super(options, Framing.SSE, "event: message_stop", SAMPLE_STREAM, Decoder::new);
    }

    @Override
    public Map<String, String> headers() {
        if (options.extras().headers().isEmpty()) {
            return HEADERS;
        }
        Map<String, String> all = new java.util.LinkedHashMap<>(HEADERS);
        all.putAll(options.extras().headers());
        return all;
    }

    @Override
    public KeyHeader keyHeader() {
        return KeyHeader.X_API_KEY;
    }

    @Override
    byte[] body(RequestSpec spec) {
        return JsonFields.write(128 + spec.inputTokens() * 6, json -> {
            json.writeStartObject();
            json.writeStringField("model", options.model());
            json.writeNumberField("max_tokens", spec.maxOutputTokens());
            StringBuilder system = null;
            for (ChatMessage message : spec.messages()) {
                if (message.role().equals("system")) {
                    system = system == null
                            ? new StringBuilder(message.content())
                            : system.append('\n').append(message.content());
                }
            }
            if (system != null) {
                json.writeStringField("system", system.toString());
            }
            json.writeArrayFieldStart("messages");
            for (ChatMessage message : spec.messages()) {
                if (!message.role().equals("system")) {
                    json.writeStartObject();
                    json.writeStringField("role", message.role());
                    json.writeStringField("content", message.content());
                    json.writeEndObject();
                }
            }
            json.writeEndArray();
            // ignore_eos: vLLM's serving of this API and the simulator honour it; the hosted API needs --no-ignore-eos.
            options.writeGeneration(json, "stop_sequences");
            json.writeBooleanField("stream", options.stream());
            json.writeEndObject();
        });
    }

    private static final class Decoder extends FieldsDecoder {

        private static final int TYPE = 0;
        private static final int DELTA_TYPE = 1;
        private static final int DELTA_TEXT = 2;
        private static final int DELTA_THINKING = 3;
        private static final int STOP_REASON = 4;
        private static final int START_INPUT = 5;
        private static final int START_OUTPUT = 6;
        private static final int INPUT = 7;
        private static final int OUTPUT = 8;
        private static final int ERROR = 9;
        private static final int ERROR_MESSAGE = 10;
        private static final int ERROR_TYPE = 11;

        private int inputTokens = -1;

        Decoder(ResponseEvents events) {
            super(
                    events,
                    new JsonFields(
                            "type",
                            "delta.type",
                            "delta.text",
                            "delta.thinking",
                            "delta.stop_reason",
                            "message.usage.input_tokens",
                            "message.usage.output_tokens",
                            "usage.input_tokens",
                            "usage.output_tokens",
                            "error",
                            "error.message",
                            "error.type"));
        }

        @Override
        String error() {
            String message = fields.error(ERROR, ERROR_MESSAGE);
            String type = fields.text(ERROR_TYPE);
            return message == null || type == null ? message : message + " (" + type + ")";
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            fields.read(data, offset, length, "not a valid Anthropic event");
            String type = eventType != null ? eventType : fields.text(TYPE);
            if (type == null) {
                throw fields.malformed("Anthropic event without a type");
            }
            switch (type) {
                case "message_start" -> {
                    inputTokens = fields.count(START_INPUT);
                    int output = fields.count(START_OUTPUT);
                    events.usage(new Usage(inputTokens, output));
                }
                case "content_block_delta" -> {
                    String deltaType = fields.text(DELTA_TYPE);
                    if (deltaType == null) {
                        throw fields.malformed("content_block_delta without a delta type");
                    }
                    String text = fields.nonEmptyText(DELTA_TEXT);
                    String thinking = fields.nonEmptyText(DELTA_THINKING);
                    if (deltaType.equals("text_delta") && text != null) {
                        events.text(text, null, nanos);
                    } else if (deltaType.equals("thinking_delta") && thinking != null) {
                        events.text(null, thinking, nanos);
                    }
                }
                case "message_delta" -> {
                    String reason = fields.text(STOP_REASON);
                    if (reason != null) {
                        events.finishReason(reason);
                    }
                    int input = fields.count(INPUT);
                    events.usage(new Usage(input >= 0 ? input : inputTokens, fields.count(OUTPUT)));
                }
                case "message_stop" -> events.endMarker();
                case "error" -> {
                    String error = error();
                    events.error(error != null ? error : "error");
                }
                default -> {
                    // ping, content_block_start/stop and event types added later carry nothing measured.
                }
            }
        }

        /** A whole message (not streamed): only its usage is read; without a stream there is no token timing. */
        @Override
        public void body(byte[] body, long nanos) {
            fields.read(body, "not a valid Anthropic message");
            String error = error();
            if (error != null) {
                events.error(error);
                return;
            }
            events.usage(new Usage(fields.count(INPUT), fields.count(OUTPUT)));
        }
    }
}
