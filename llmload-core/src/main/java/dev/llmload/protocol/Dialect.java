package dev.llmload.protocol;

import dev.llmload.workload.RequestSpec;

/**
 * One wire dialect of an inference API: where requests go, how their bodies are written, how the
 * answer is framed and how it is read. One instance serves a whole run; it is immutable and
 * thread-safe (bodies are encoded on the preparation thread, responses decoded on the event
 * loops through per-request {@link ResponseDecoder}s). See the package documentation for how a
 * new dialect fits in.
 */
public sealed interface Dialect permits OpenAiDialect {

    /** The dialect that {@code options.api()} names. */
    static Dialect of(RequestOptions options) {
        return switch (options.api()) {
            case CHAT, COMPLETIONS -> new OpenAiDialect(options);
        };
    }

    /** The path requests are POSTed to, under the endpoint's base path. */
    String path();

    /** The JSON body of one request. */
    byte[] encode(RequestSpec spec);

    /** How a streamed answer is framed; any other response is read as a whole body. */
    Framing streamFraming();

    /** A decoder for one response, reporting to {@code events}. */
    ResponseDecoder newDecoder(ResponseEvents events);

    /** The server's message in an error body (HTTP 4xx/5xx), or null when the body is not this dialect's error shape. */
    String errorMessage(byte[] body);

    /**
     * A short made-up streamed answer in this dialect, framed as {@link #streamFraming()} says:
     * a few token-bearing events and the end marker. Decoding it before a run compiles the
     * per-event path, so the first measured requests do not time an interpreter.
     */
    byte[] sampleStream();
}
