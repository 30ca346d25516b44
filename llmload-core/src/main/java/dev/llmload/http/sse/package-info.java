/**
 * Stream framing: {@link dev.llmload.http.sse.SseDecoder} (Server-Sent Events) and
 * {@link dev.llmload.http.sse.NdjsonDecoder} (newline-delimited JSON) cut a byte stream into
 * messages as the bytes arrive, passing each on, as a slice of the framer's one reused buffer
 * valid for the call ({@link dev.llmload.http.sse.StreamFramer.Listener}), with the time of the
 * read that completed it.
 *
 * <p>Pure and single-threaded: a framer belongs to one response and is used only by the event
 * loop that reads it. It knows nothing of what the messages mean; the dialects in
 * {@code dev.llmload.protocol} read their data.
 */
package dev.llmload.http.sse;
