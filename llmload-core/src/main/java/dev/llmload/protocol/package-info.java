/**
 * The wire dialects of inference APIs: how a request is written, and how its answer is framed and
 * read into typed events. {@link dev.llmload.protocol.Dialect#of} makes the one that
 * {@link dev.llmload.protocol.ApiKind} names: OpenAI chat and completions
 * ({@link dev.llmload.protocol.OpenAiDialect}), the engines' native streams (TGI, Triton, Ollama,
 * llama.cpp, SGLang), Anthropic Messages, the OpenAI Responses API, and embeddings and rerank,
 * which are never streamed.
 *
 * <h2>The seam</h2>
 * <pre>{@code
 * Dialect dialect = Dialect.of(options);          // one per run, immutable
 * byte[] body = dialect.encode(spec);             // llmload-prepare thread, POSTed to dialect.path()
 * // on the event loop, when the response head arrives:
 * Framing framing = dialect.streamFraming().forResponse(status, contentType);  // SSE, NDJSON or WHOLE_BODY
 * ResponseDecoder decoder = dialect.newDecoder(events);                         // one per response
 * decoder.message(eventType, bytes, offset, length, readNanos);  // each framed message: a slice valid for the call
 * decoder.body(bytes, endNanos);                  // or the whole body of an answer not streamed
 * dialect.errorMessage(bytes);                    // the server's message in an HTTP error body
 * }</pre>
 * The decoder reports to {@link dev.llmload.protocol.ResponseEvents}: {@code text(content,
 * reasoning, nanos)} for each token-bearing event, {@code tokenCount} (the server's count of the
 * event just reported, where it gives one: SGLang), {@code serverTimings} (the server's own
 * account: Ollama's durations, llama.cpp's {@code timings}, SGLang's {@code meta_info}),
 * {@code usage}, {@code finishReason}, {@code error} (an error inside a response begun as a
 * success) and {@code endMarker} (the dialect's own end of answer; a stream without it fails as
 * {@code protocol}, unless the dialect has none, as Triton). A message that is not the dialect's
 * shape throws {@link dev.llmload.protocol.MalformedMessageException} and reports nothing. The
 * request's measurement ({@code dev.llmload.load}) sees only these events: TTFT, TTFC, ITL and
 * E2E come out the same whatever the dialect.
 *
 * <h2>Adding a dialect</h2>
 * A class implementing {@code Dialect} (add it to the {@code permits} list, to
 * {@link dev.llmload.protocol.ApiKind} and to {@link dev.llmload.protocol.Dialect#of}), with a
 * decoder that keeps whatever state its wire format needs across the messages of one response.
 * Native decoders read their fields with {@code JsonFields}, which walks a message's bytes with
 * the thread's reused Jackson parser ({@code MessageParser}) into slots reused for every message,
 * so a message costs no tree of objects and no parser; a decoder keeps nothing of the bytes it was
 * handed, which the framer reuses for its next message.
 * Its fixture (documented stream, error shape) goes into the tests' {@code DialectFixtures}, which
 * run it whole, split at every byte, with CRLF, hostile, and over loopback. Its body writes the
 * sampling parameters of {@link dev.llmload.protocol.RequestExtras} where its servers read them (or
 * {@code RequestExtras.refusal} names the API as having none); {@code NativeDialect.encode} merges
 * {@code --extra-body} into it as into every other dialect's.
 *
 * <p>A stream that ends without its dialect's end marker was cut short: it fails as
 * {@code protocol}, keeping the timings it had ({@code endMarkerSeen} on the finished request).
 *
 * <p>Threads: dialects are immutable and shared; {@code encode} runs on the preparation thread
 * (or the session dispatcher's); a decoder is confined to the event loop of its response and
 * calls its events synchronously there, after the read's time was taken.
 */
package dev.llmload.protocol;
