package dev.llmload.protocol;

import dev.llmload.workload.RequestSpec;
import java.util.function.Function;

/**
 * What every dialect but OpenAI's has in common: its options, the path its API names (with the
 * model put in where the path has {@code {model}}, as Triton's does), its framing, its end marker
 * and its sample stream, all fixed when it is made, and its decoder, which also reads its error
 * bodies. A subclass writes the request bodies and says how its answers read. Immutable.
 */
abstract sealed class NativeDialect implements Dialect
        permits TgiDialect,
                TritonDialect,
                OllamaDialect,
                LlamaCppDialect,
                SglangDialect,
                AnthropicDialect,
                ResponsesDialect,
                EmbeddingsDialect {

    final RequestOptions options;
    private final String path;
    private final Framing framing;
    private final String endMarker;
    private final byte[] sampleStream;
    private final Function<ResponseEvents, FieldsDecoder> decoders;

    /**
     * @param endMarker what ends an answer in this dialect, as {@link Dialect#endMarker} names it;
     *                  null for a dialect without one
     * @param decoders  makes a decoder reporting to the events given (null: one that only reads an error body)
     */
    NativeDialect(
            RequestOptions options,
            Framing framing,
            String endMarker,
            byte[] sampleStream,
            Function<ResponseEvents, FieldsDecoder> decoders) {
        this.options = options;
        String template = options.api().path();
        this.path = options.model() == null ? template : template.replace("{model}", options.model());
        this.framing = framing;
        this.endMarker = endMarker;
        this.sampleStream = sampleStream.clone();
        this.decoders = decoders;
    }

    @Override
    public final RequestOptions options() {
        return options;
    }

    /** The body with {@code --extra-body}'s fields merged over the dialect's own ({@link #body}). */
    @Override
    public final byte[] encode(RequestSpec spec) {
        return options.extras().merged(body(spec));
    }

    /** The JSON body of one request as this dialect writes it. */
    abstract byte[] body(RequestSpec spec);

    @Override
    public final ResponseDecoder newDecoder(ResponseEvents events) {
        return decoders.apply(events);
    }

    @Override
    public final String errorMessage(byte[] body) {
        FieldsDecoder decoder = decoders.apply(null);
        return decoder.fields.readsAsObject(body) ? decoder.error() : null;
    }

    @Override
    public final String path() {
        return path;
    }

    @Override
    public final Framing streamFraming() {
        return framing;
    }

    @Override
    public final String endMarker() {
        return endMarker;
    }

    @Override
    public final byte[] sampleStream() {
        return sampleStream.clone();
    }
}
