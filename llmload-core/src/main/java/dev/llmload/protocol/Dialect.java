package dev.llmload.protocol;

import dev.llmload.http.KeyHeader;
import dev.llmload.workload.RequestSpec;
import java.util.Map;

/**
 * One wire dialect of an inference API: where requests go, how their bodies are written, how the
 * answer is framed and how it is read. One instance serves a whole run; it is immutable and
 * thread-safe (bodies are encoded on the preparation thread, responses decoded on the event
 * loops through per-request {@link ResponseDecoder}s). See the package documentation for how a
 * new dialect fits in.
 */
public sealed interface Dialect permits OpenAiDialect, NativeDialect {

    /** The dialect that {@code options.api()} names; {@link ApiKind#AUTO} must have been resolved first. */
    static Dialect of(RequestOptions options) {
        return switch (options.api()) {
            case CHAT, COMPLETIONS -> new OpenAiDialect(options);
            case TGI -> new TgiDialect(options);
            case TRITON -> new TritonDialect(options);
            case OLLAMA, OLLAMA_CHAT -> new OllamaDialect(options);
            case LLAMACPP -> new LlamaCppDialect(options);
            case SGLANG -> new SglangDialect(options);
            case ANTHROPIC -> new AnthropicDialect(options);
            case RESPONSES -> new ResponsesDialect(options);
            case EMBEDDINGS, RERANK -> new EmbeddingsDialect(options);
            case AUTO ->
                throw new IllegalArgumentException(
                        "--api auto is resolved against the server before a dialect is made");
        };
    }

    /**
     * The path requests are POSTed to, under the endpoint's base path: {@code /v1} for
     * OpenAI-shaped APIs, the server's root for native ones ({@link ApiKind#atServerRoot()}).
     */
    String path();

    /** The JSON body of one request, with {@code --extra-body}'s fields merged over the dialect's own. */
    byte[] encode(RequestSpec spec);

    /** How a streamed answer is framed; any other response is read as a whole body. */
    Framing streamFraming();

    /** A decoder for one response, reporting to {@code events}. */
    ResponseDecoder newDecoder(ResponseEvents events);

    /** The server's message in an error body (HTTP 4xx/5xx), or null when the body is not this dialect's error shape. */
    String errorMessage(byte[] body);

    /** What ends a complete answer in this dialect, for the message of a stream cut short. */
    String endMarker();

    /**
     * Headers every request carries besides the key: the dialect's own (Anthropic's
     * {@code anthropic-version}), then {@code --header}'s, which win.
     */
    default Map<String, String> headers() {
        return options().extras().headers();
    }

    /** How this dialect's request bodies are built. */
    RequestOptions options();

    /** How the API key travels: a bearer token, or Anthropic's {@code x-api-key}. */
    default KeyHeader keyHeader() {
        return KeyHeader.BEARER;
    }

    /**
     * A short made-up streamed answer in this dialect, framed as {@link #streamFraming()} says:
     * a few token-bearing events and the end marker. Decoding it before a run compiles the
     * per-event path, so the first measured requests do not time an interpreter. A dialect that
     * never streams ({@link Framing#WHOLE_BODY}) gives a whole answer's body instead.
     */
    byte[] sampleStream();
}
