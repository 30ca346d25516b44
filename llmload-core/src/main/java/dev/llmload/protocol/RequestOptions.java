package dev.llmload.protocol;

/**
 * How request bodies are built.
 *
 * @param model        the {@code model} field; the served model name
 * @param stream       ask for a streamed (SSE) response; without it TTFT and ITL are not defined
 * @param ignoreEos    send {@code ignore_eos: true} so the server generates exactly {@code max_tokens}
 *                     (vLLM, SGLang and the simulator honour it; others ignore it)
 * @param temperature  sent when not null
 */
public record RequestOptions(ApiKind api, String model, boolean stream, boolean ignoreEos, Double temperature) {}
