package dev.llmload.protocol;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.nio.charset.StandardCharsets;

/**
 * Embeddings ({@code POST /v1/embeddings}) and rerank ({@code POST /v1/rerank}): answers that are
 * never streamed, so a request has a latency and input tokens but no token events. Each request
 * carries {@link RequestOptions#batchSize()} inputs: for embeddings that many copies of the
 * workload's prompt in {@code input}; for rerank the first message as the {@code query} and that
 * many copies of the prompt as {@code documents}. Input tokens come from
 * {@code usage.prompt_tokens} (or {@code usage.total_tokens}, which is all a rerank reports).
 */
public final class EmbeddingsDialect extends NativeDialect {

    /** An answer as the hot-path warm-up reads it; never streamed, so one whole body. */
    private static final byte[] SAMPLE_ANSWER = """
            {"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,0.2]}],"model":"m","usage":{"prompt_tokens":4,"total_tokens":4}}""".getBytes(StandardCharsets.UTF_8);

    private final boolean rerank;

    EmbeddingsDialect(RequestOptions options) {
        super(options, Framing.WHOLE_BODY, null, SAMPLE_ANSWER, Decoder::new);
        this.rerank = options.api() == ApiKind.RERANK;
    }

    @Override
    byte[] body(RequestSpec spec) {
        String text = spec.promptText();
        return JsonFields.write(
                (int) Math.min(1 << 20, 128L + (long) options.batchSize() * (text.length() + 4)), json -> {
                    json.writeStartObject();
                    json.writeStringField("model", options.model());
                    if (rerank) {
                        ChatMessage first = spec.messages().getFirst();
                        json.writeStringField("query", first.content());
                        json.writeArrayFieldStart("documents");
                    } else {
                        json.writeArrayFieldStart("input");
                    }
                    for (int i = 0; i < options.batchSize(); i++) {
                        json.writeString(text);
                    }
                    json.writeEndArray();
                    if (!rerank) {
                        json.writeStringField("encoding_format", "float");
                    }
                    json.writeEndObject();
                });
    }

    /** Never streamed: every answer is read whole. */
    /** None: an answer that is not streamed is whole when its body is. */
    /** A whole answer, since this dialect never streams. */
    private static final class Decoder extends FieldsDecoder {

        private static final int PROMPT = 0;
        private static final int TOTAL = 1;
        private static final int ERROR = 2;
        private static final int ERROR_MESSAGE = 3;
        private static final int DATA = 4;
        private static final int RESULTS = 5;
        private static final int DETAIL = 6;

        Decoder(ResponseEvents events) {
            super(
                    events,
                    new JsonFields(
                            "usage.prompt_tokens",
                            "usage.total_tokens",
                            "error",
                            "error.message",
                            "data",
                            "results",
                            "detail"));
        }

        @Override
        String error() {
            String error = fields.error(ERROR, ERROR_MESSAGE);
            return error != null ? error : fields.text(DETAIL);
        }

        @Override
        public void message(String eventType, byte[] data, int offset, int length, long nanos) {
            throw JsonFields.malformed("an embeddings or rerank answer is never streamed", data, offset, length, null);
        }

        @Override
        public void body(byte[] body, long nanos) {
            fields.read(body, "not a valid embeddings or rerank answer");
            String error = error();
            if (error != null) {
                events.error(error);
                return;
            }
            if (!fields.present(DATA) && !fields.present(RESULTS)) {
                throw fields.malformed("answer without data or results");
            }
            int prompt = fields.count(PROMPT);
            events.usage(new Usage(prompt >= 0 ? prompt : fields.count(TOTAL), 0));
        }
    }
}
