/**
 * Server-Sent Events framing: {@link dev.llmload.http.sse.SseDecoder} cuts a byte stream into
 * events as the bytes arrive, passing each on with the time of the read that completed it.
 *
 * <p>Pure and single-threaded: a decoder belongs to one response and is used only by the event
 * loop that reads it. It knows nothing of what the events mean; the dialects in
 * {@code dev.llmload.protocol} read their data.
 */
package dev.llmload.http.sse;
