package dev.llmload.protocol;

/**
 * How request bodies are built.
 *
 * @param model        the {@code model} field; the served model name
 * @param stream       ask for a streamed response; without it TTFT and ITL are not defined
 * @param ignoreEos    send {@code ignore_eos: true} so the server generates exactly {@code max_tokens}
 *                     (vLLM, SGLang and the simulator honour it; others ignore it)
 * @param temperature  sent when not null
 * @param batchSize    inputs per request for embeddings and rerank (documents to rank); 1 elsewhere
 * @param images       synthetic images attached to every chat request; null for none
 * @param seed         the run's seed, from which the images' pixels are made
 */
public record RequestOptions(ApiKind api, String model, boolean stream, boolean ignoreEos, Double temperature,
                             int batchSize, ImageInputs images, long seed) {

    public RequestOptions {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
        }
        if (images != null && api != ApiKind.CHAT) {
            throw new IllegalArgumentException("--images needs --api chat");
        }
    }

    /** Options for one input per request and no images. */
    public RequestOptions(ApiKind api, String model, boolean stream, boolean ignoreEos, Double temperature) {
        this(api, model, stream, ignoreEos, temperature, 1, null, 0);
    }
}
