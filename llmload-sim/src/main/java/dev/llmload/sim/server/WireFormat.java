package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.llmload.sim.engine.FinishReason;
import java.nio.charset.StandardCharsets;

/**
 * How one API writes an answer: the events before the first token, each token event as the bytes
 * around its JSON-escaped text, the final events with the API's end marker, an error in the API's
 * own shape, and the whole body of an answer that is not streamed. {@link CompletionStream} owns
 * the timing and the HTTP chunks; a format only makes bytes. One instance per response; the
 * OpenAI format ({@link ChunkFormat}) builds its templates once so a token event is three copies,
 * the native formats are simpler and cost one small array per event.
 *
 * <p>Formats follow reference/servers-wire-and-metrics.md §C; each API's format is a file of its
 * own ({@code ChunkFormat} for the OpenAI-shaped APIs, {@code TgiFormat}, {@code TritonFormat},
 * {@code OllamaFormat}, {@code LlamaCppFormat}, {@code SglangFormat}, {@code AnthropicFormat},
 * {@code ResponsesFormat}, {@code EmbeddingsFormat} for the native ones, §C.4–§C.9), whose doc
 * says what its stream looks like; {@link #of} picks one per request.
 */
abstract sealed class WireFormat
        permits ChunkFormat,
                TgiFormat,
                TritonFormat,
                OllamaFormat,
                LlamaCppFormat,
                SglangFormat,
                AnthropicFormat,
                ResponsesFormat,
                EmbeddingsFormat {

    /** Builds the bodies a format makes as JSON trees rather than from templates. */
    static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /**
     * What the final events and a whole body report about a finished answer. Durations are the
     * engine's own: queue (arrival to scheduling), prefill (scheduling to the first token's write)
     * and decode (first to last token).
     */
    record Finish(
            FinishReason reason,
            int promptTokens,
            int completionTokens,
            String text,
            long queueNanos,
            long prefillNanos,
            long decodeNanos,
            long totalNanos) {}

    /** The content type of a streamed answer. */
    String streamContentType() {
        return "text/event-stream; charset=utf-8";
    }

    /** Events written with the response head, before any token; null for none. */
    byte[] opening(int promptTokens) {
        return null;
    }

    /** Events written just before the first token event, in the same flush; null for none. */
    byte[] beforeFirstToken() {
        return null;
    }

    /** Whether a token event carries all the text so far rather than the new text (SGLang). */
    boolean cumulative() {
        return false;
    }

    /** Whether {@link #finish} and {@link #body} need the whole text ({@link Finish#text}). */
    boolean needsText() {
        return false;
    }

    /** The bytes before the text of a token event that brings the answer to {@code tokensAfter} tokens. */
    abstract byte[] eventOpen(int tokensAfter);

    /** The bytes after the text of that event. */
    abstract byte[] eventClose(int tokensAfter);

    /** The final events, with the API's end marker: each goes out as an HTTP chunk of its own. */
    abstract byte[][] finish(Finish finish);

    /** An error inside a stream that has begun, in the API's own shape, with its end marker if it has one. */
    abstract byte[][] streamError(String message);

    /** A data event whose JSON breaks off inside a string (the malformed-frame fault). */
    byte[] malformed() {
        return utf8(new String(eventOpen(1), StandardCharsets.UTF_8) + "\n\n");
    }

    /** The whole JSON body of an answer that is not streamed. */
    abstract String body(Finish finish);

    /**
     * The JSON body of an HTTP error (and of an in-stream error event) in {@code api}'s shape; OpenAI's
     * ({@code {"error":{"message","type","param","code"}}}) for the OpenAI-shaped APIs and for none.
     */
    static String errorBody(SimApi api, String message, String type, int status) {
        String m = escape(message);
        return switch (api == null ? SimApi.CHAT : api) {
            case TGI -> "{\"error\":\"" + m + "\",\"error_type\":\"" + escape(type == null ? "error" : type) + "\"}";
            case TRITON, OLLAMA, OLLAMA_CHAT -> "{\"error\":\"" + m + "\"}";
            case LLAMACPP ->
                "{\"error\":{\"code\":" + status + ",\"message\":\"" + m + "\",\"type\":\""
                        + escape(type == null ? "server_error" : type) + "\"}}";
            case SGLANG -> "{\"error\":{\"message\":\"" + m + "\"}}";
            case ANTHROPIC ->
                "{\"type\":\"error\",\"error\":{\"type\":\"" + anthropicType(status) + "\",\"message\":\"" + m + "\"}}";
            default -> ChunkFormat.errorJson(message, type, status);
        };
    }

    private static String anthropicType(int status) {
        return switch (status) {
            case 400 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 404 -> "not_found_error";
            case 429 -> "rate_limit_error";
            case 503, 529 -> "overloaded_error";
            default -> "api_error";
        };
    }

    static String escape(String s) {
        return ChunkFormat.escape(s);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Events, each as its UTF-8 bytes. */
    static byte[][] events(String... events) {
        byte[][] bytes = new byte[events.length][];
        for (int i = 0; i < events.length; i++) {
            bytes[i] = utf8(events[i]);
        }
        return bytes;
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** The format of {@code request}'s API. */
    static WireFormat of(CompletionRequest request, String id, long arrivalUnixMs, String model, boolean earlyRole) {
        return switch (request.api()) {
            case CHAT, COMPLETIONS ->
                new ChunkFormat(
                        request.chat(),
                        (request.chat() ? "chatcmpl-" : "cmpl-") + id,
                        arrivalUnixMs / 1000,
                        model,
                        request.includeUsage(),
                        earlyRole);
            case TGI -> new TgiFormat();
            case TRITON -> new TritonFormat(model);
            case OLLAMA, OLLAMA_CHAT -> new OllamaFormat(request.api() == SimApi.OLLAMA_CHAT, model, arrivalUnixMs);
            case LLAMACPP -> new LlamaCppFormat(model);
            case SGLANG -> new SglangFormat(id);
            case ANTHROPIC -> new AnthropicFormat(id, model);
            case RESPONSES -> new ResponsesFormat(id, model, arrivalUnixMs / 1000, request.maxTokens());
            case EMBEDDINGS, RERANK -> new EmbeddingsFormat(request, model);
        };
    }
}
