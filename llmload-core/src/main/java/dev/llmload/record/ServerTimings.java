package dev.llmload.record;

/**
 * The server's own account of one request's time, as its native API reports it (Ollama's
 * {@code *_duration}, llama.cpp's {@code timings}, SGLang's {@code meta_info}), in milliseconds.
 * Each field is {@link Double#NaN} when the server did not report it. Set beside the client's
 * measurement, the difference between server prefill and client TTFT is network, queueing and
 * framing.
 *
 * @param loadMs    model loading before the request could run (Ollama {@code load_duration})
 * @param prefillMs prompt processing (Ollama {@code prompt_eval_duration}, llama.cpp {@code prompt_ms})
 * @param decodeMs  token generation (Ollama {@code eval_duration}, llama.cpp {@code predicted_ms})
 * @param totalMs   the whole request inside the server (Ollama {@code total_duration}, SGLang
 *                  {@code meta_info.e2e_latency})
 * @param cachedPromptTokens prompt tokens served from the server's cache (llama.cpp {@code cache_n},
 *                  SGLang {@code cached_tokens}); -1 when not reported
 */
public record ServerTimings(double loadMs, double prefillMs, double decodeMs, double totalMs, int cachedPromptTokens) {

    /** Nothing reported yet; dialects fill in what they find. */
    public static final ServerTimings NONE = new ServerTimings(Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1);

    /** The server's time to first token as it sees it: load plus prefill, when prefill was reported. */
    public double firstTokenMs() {
        return Double.isNaN(prefillMs) ? Double.NaN : prefillMs + (Double.isNaN(loadMs) ? 0 : loadMs);
    }
}
