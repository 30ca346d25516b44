/**
 * The simulated OpenAI-compatible HTTP server: Netty HTTP/1.1 with keep-alive, request parsing,
 * vLLM-shaped SSE chunks, faults applied per stream, and the ground-truth line of every request,
 * timed as the wire sees it: from the read of its first byte ({@code ArrivalStamp}) to each write.
 *
 * <p>Each API's wire format is a {@code WireFormat} of its own file, as core's {@code protocol}
 * keeps one dialect per file: {@code ChunkFormat} (the OpenAI-shaped APIs) and one per native
 * API ({@code TgiFormat}, {@code TritonFormat}, {@code OllamaFormat}, {@code LlamaCppFormat},
 * {@code SglangFormat}, {@code AnthropicFormat}, {@code ResponsesFormat},
 * {@code EmbeddingsFormat}); {@code WireFormat.of} picks one per request. A format only makes
 * bytes; {@code CompletionStream} owns when they are written.
 *
 * <p>Threads: the {@code sim-io} event loops own their connections and streams; the engine's
 * callbacks reach a stream through its loop's {@code LoopInbox}, which drains them in slices so
 * no loop task grows with the batch.
 */
package dev.llmload.sim.server;
