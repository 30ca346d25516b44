/**
 * The wire dialects of inference APIs: how a request is written, and how its answer is framed and
 * read into typed events. Today one {@link dev.llmload.protocol.Dialect} serves the OpenAI chat
 * and completions APIs ({@link dev.llmload.protocol.OpenAiDialect}).
 *
 * <h2>The seam</h2>
 * <pre>{@code
 * Dialect dialect = Dialect.of(options);          // one per run, immutable
 * byte[] body = dialect.encode(spec);             // llmload-prepare thread, POSTed to dialect.path()
 * // on the event loop, when the response head arrives:
 * Framing framing = dialect.streamFraming().forResponse(status, contentType);  // SSE or WHOLE_BODY
 * ResponseDecoder decoder = dialect.newDecoder(events);                         // one per response
 * decoder.message(eventType, data, readNanos);    // each framed message of a stream
 * decoder.body(bytes, endNanos);                  // or the whole body of an answer not streamed
 * dialect.errorMessage(bytes);                    // the server's message in an HTTP error body
 * }</pre>
 * The decoder reports to {@link dev.llmload.protocol.ResponseEvents}: {@code text(content,
 * reasoning, nanos)} for each token-bearing event, {@code usage}, {@code finishReason},
 * {@code error} (an error inside a response begun as a success) and {@code endMarker} (the
 * dialect's own end of answer). A message that is not the dialect's shape throws
 * {@link dev.llmload.protocol.MalformedMessageException} and reports nothing. The request's
 * measurement ({@code dev.llmload.load}) sees only these events: TTFT, TTFC, ITL and E2E come out
 * the same whatever the dialect.
 *
 * <h2>Adding a dialect</h2>
 * A class implementing {@code Dialect} (add it to the {@code permits} list and to
 * {@link dev.llmload.protocol.Dialect#of}), with a decoder that keeps whatever state its wire
 * format needs across the messages of one response:
 * <ul>
 *   <li>SSE without {@code [DONE]} and a final summary (TGI {@code /generate_stream}, llama.cpp
 *       {@code /completion}, Triton {@code generate_stream}): report the summary's counts as
 *       {@code usage}, its stop reason as {@code finishReason}, and {@code endMarker} on the
 *       event that ends the answer ({@code details}, {@code stop: true}).</li>
 *   <li>Named SSE events (Anthropic Messages, OpenAI Responses): dispatch on {@code eventType};
 *       {@code text_delta} is content, {@code thinking_delta} reasoning.</li>
 *   <li>Cumulative text (SGLang {@code /generate}): keep the text seen so far and report the new
 *       suffix.</li>
 *   <li>NDJSON (Ollama {@code /api/generate}, {@code /api/chat}): a new {@link dev.llmload.protocol.Framing}
 *       constant with its media type, and a line framer beside the SSE one where
 *       {@code RequestExecution} picks the framer; the compiler points at every switch that must
 *       learn it.</li>
 *   <li>Answers that are not streamed (embeddings, rerank): {@code Framing.WHOLE_BODY} as the
 *       stream framing; the decoder's {@code body} reports the usage.</li>
 * </ul>
 * What the events carry today is what the OpenAI dialect gives. Two facts other servers state
 * need one more event each when their dialect arrives, carried through {@code FinishedRequest}
 * into the record and the journal: the token count of an event (SGLang's per-event counts, used in
 * place of the local tokenizer's) and the server's own timings (Ollama's durations, llama.cpp's
 * {@code timings}). A stream that ends without its end marker was cut short: it fails as
 * {@code protocol}, keeping the timings it had ({@code endMarkerSeen} on the finished request).
 *
 * <p>Threads: dialects are immutable and shared; {@code encode} runs on the preparation thread
 * (or the session dispatcher's); a decoder is confined to the event loop of its response and
 * calls its events synchronously there, after the read's time was taken.
 */
package dev.llmload.protocol;
