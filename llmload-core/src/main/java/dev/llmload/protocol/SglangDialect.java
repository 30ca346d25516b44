package dev.llmload.protocol;

import dev.llmload.record.ServerTimings;
import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * SGLang's native {@code POST /generate}: SSE of JSON objects whose {@code text} is all the text
 * so far (so each event's new text is the suffix beyond what came before; a server started with
 * incremental output sends only the new text, which the second text event detects), with
 * {@code meta_info}: {@code prompt_tokens}, {@code completion_tokens} (cumulative, so each event's
 * token count is exact), {@code cached_tokens}, {@code finish_reason.type} and, when the server
 * reports it, {@code e2e_latency} in seconds. Ends with {@code data: [DONE]}. Errors are
 * {@code {"error": {"message": ...}}}.
 */
public final class SglangDialect extends NativeDialect {

    /** The data of the last event, {@code [DONE]}. */
    private static final byte[] END_MARKER = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private static final double MS_PER_SECOND = 1000.0;

    private static final byte[] SAMPLE_STREAM = ("""
            data: {"text":" warm","output_ids":[1],"meta_info":{"id":"x","finish_reason":null,"prompt_tokens":4,"completion_tokens":1,"cached_tokens":0}}

            data: {"text":" warm up","output_ids":[1,2],"meta_info":{"id":"x","finish_reason":{"type":"length","length":2},"prompt_tokens":4,"completion_tokens":2,"cached_tokens":0,"e2e_latency":0.01}}

            data: [DONE]

            """).getBytes(StandardCharsets.UTF_8);

    SglangDialect(RequestOptions options) {
        super(options, Framing.SSE, "data: [DONE]", SAMPLE_STREAM, Decoder::new);
    }

    @Override
    byte[] body(RequestSpec spec) {
        return JsonFields.write(128 + spec.inputTokens() * 6, json -> {
            json.writeStartObject();
            json.writeStringField("text", spec.promptText());
            json.writeObjectFieldStart("sampling_params");
            json.writeNumberField("max_new_tokens", spec.maxOutputTokens());
            options.writeGeneration(json, "stop");
            json.writeEndObject();
            json.writeBooleanField("stream", options.stream());
            json.writeEndObject();
        });
    }

    private static final class Decoder extends FieldsDecoder {

        private static final int TEXT = 0;
        private static final int META = 1;
        private static final int PROMPT = 2;
        private static final int COMPLETION = 3;
        private static final int CACHED = 4;
        private static final int FINISH = 5;
        private static final int E2E = 6;
        private static final int ERROR = 7;
        private static final int ERROR_MESSAGE = 8;

        /** The whole text of the previous event, until the second text event decides the mode. */
        private String firstText;

        private boolean decided;
        private boolean incremental;
        private int seenChars;
        /** Tokens already attributed to earlier text events. */
        private int countedTokens;

        Decoder(ResponseEvents events) {
            super(
                    events,
                    new JsonFields(
                            "text",
                            "meta_info",
                            "meta_info.prompt_tokens",
                            "meta_info.completion_tokens",
                            "meta_info.cached_tokens",
                            "meta_info.finish_reason.type",
                            "meta_info.e2e_latency",
                            "error",
                            "error.message"));
        }

        @Override
        String error() {
            return fields.error(ERROR, ERROR_MESSAGE);
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            if (Arrays.equals(data, offset, offset + length, END_MARKER, 0, END_MARKER.length)) {
                events.endMarker();
                return;
            }
            fields.read(data, offset, length, "not a valid SGLang event");
            report(nanos, true);
        }

        @Override
        public void body(byte[] body, long nanos) {
            fields.read(body, "not a valid SGLang answer");
            report(nanos, false);
        }

        private void report(long nanos, boolean stream) {
            String error = fields.error(ERROR, ERROR_MESSAGE);
            if (error != null) {
                events.error(error);
                return;
            }
            String text = fields.text(TEXT);
            if (text == null || !fields.isObject(META)) {
                throw fields.malformed("SGLang event without text and meta_info");
            }
            String fresh = stream ? newText(text) : text;
            int completion = fields.count(COMPLETION);
            if (!fresh.isEmpty()) {
                events.text(fresh, null, nanos);
                if (completion > countedTokens) {
                    events.tokenCount(completion - countedTokens);
                    countedTokens = completion;
                }
            }
            String reason = fields.text(FINISH);
            if (reason != null) {
                events.finishReason(reason);
                events.usage(new Usage(fields.count(PROMPT), completion));
                double e2eSeconds = fields.number(E2E);
                events.serverTimings(new ServerTimings(
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        e2eSeconds >= 0 ? e2eSeconds * MS_PER_SECOND : Double.NaN,
                        fields.count(CACHED)));
            }
        }

        /** The text this event adds: the suffix of a cumulative text, or all of an incremental one. */
        private String newText(String text) {
            if (text.isEmpty()) {
                return text;
            }
            if (!decided) {
                if (firstText == null) {
                    firstText = text;
                    seenChars = text.length();
                    return text;
                }
                decided = true;
                incremental = !(text.length() >= firstText.length() && text.startsWith(firstText));
                firstText = null;
            }
            if (incremental) {
                return text;
            }
            if (text.length() < seenChars) {
                throw fields.malformed("SGLang's cumulative text got shorter");
            }
            String fresh = text.substring(seenChars);
            seenChars = text.length();
            return fresh;
        }
    }
}
