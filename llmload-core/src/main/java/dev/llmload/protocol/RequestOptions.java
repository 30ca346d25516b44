package dev.llmload.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * How request bodies are built.
 *
 * @param model        the {@code model} field; the served model name
 * @param stream       ask for a streamed response; without it TTFT and ITL are not defined
 * @param ignoreEos    send {@code ignore_eos: true} so the server generates exactly {@code max_tokens}
 *                     (vLLM, SGLang and the simulator honour it; others ignore it)
 * @param extras       headers, body fields and sampling parameters every request carries
 * @param batchSize    inputs per request for embeddings and rerank (documents to rank); 1 elsewhere
 * @param images       synthetic images attached to every chat request; null for none
 * @param seed         the run's seed, from which the images' pixels are made
 */
public record RequestOptions(
        ApiKind api,
        String model,
        boolean stream,
        boolean ignoreEos,
        RequestExtras extras,
        int batchSize,
        ImageInputs images,
        long seed) {

    public RequestOptions {
        extras = extras == null ? RequestExtras.NONE : extras;
        String refusal = extras.refusal(api);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
        }
        if (images != null && api != ApiKind.CHAT) {
            throw new IllegalArgumentException("--images needs --api chat");
        }
    }

    /** Options for one input per request and no images. */
    public RequestOptions(ApiKind api, String model, boolean stream, boolean ignoreEos, RequestExtras extras) {
        this(api, model, stream, ignoreEos, extras, 1, null, 0);
    }

    /** The sampling temperature to send; null for the server's default. */
    Double temperature() {
        return extras.temperature();
    }

    /**
     * Writes what every generating dialect sends the same way into the object being written:
     * {@code ignore_eos} when asked for (servers that do not know it ignore it), the temperature
     * when given, and the other sampling parameters ({@link RequestExtras#writeSampling}). TGI
     * (which refuses a temperature of 0) and Triton (whose {@code ignore_eos} is a request
     * parameter, not an input) write their own.
     *
     * @param stopName the field the dialect's servers read stop strings from
     */
    void writeGeneration(JsonGenerator json, String stopName) throws IOException {
        if (ignoreEos) {
            json.writeBooleanField("ignore_eos", true);
        }
        if (extras.temperature() != null) {
            json.writeNumberField("temperature", extras.temperature());
        }
        extras.writeSampling(json, stopName);
    }
}
