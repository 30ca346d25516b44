package dev.llmload.config;

import dev.llmload.protocol.ImageInputs;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where prompts come from and how long requests are.
 *
 * @param inputTokens   synthetic prompt length (with sessions: of each new user message)
 * @param outputTokens  {@code max_tokens}; a dataset's own output lengths win unless absent
 * @param rangeRatio    vLLM's {@code --random-range-ratio}, already applied to both lengths; null for none
 * @param dataset       a JSONL or ShareGPT file; null for synthetic prompts
 * @param datasetFormat {@code jsonl} or {@code sharegpt}; null to tell by the file's first character
 * @param sharedPrefix  {@code COUNT:TOKENS[:uniform|:zipf:S]}: prompts start with one of COUNT shared prefixes
 * @param tokenizer     an encoding name or a path to a tokenizer.json
 * @param batchSize     inputs per request of embeddings and rerank ({@code --batch-size}); 1 elsewhere
 * @param images        synthetic images in every chat request ({@code --images N:WxH}); null for none
 */
public record Data(
        Lengths inputTokens,
        Lengths outputTokens,
        Double rangeRatio,
        Path dataset,
        String datasetFormat,
        String sharedPrefix,
        String tokenizer,
        int batchSize,
        ImageInputs images) {

    public Data {
        if (inputTokens == null || outputTokens == null) {
            throw new ConfigException("--input-tokens and --output-tokens are required");
        }
        if (datasetFormat != null && !datasetFormat.toLowerCase(Locale.ROOT).matches("jsonl|sharegpt")) {
            throw new ConfigException("--dataset-format must be jsonl or sharegpt, not '" + datasetFormat + "'");
        }
        if (batchSize < 1) {
            throw new ConfigException("--batch-size must be at least 1, got " + batchSize);
        }
    }

    /** Synthetic prompts of these lengths, as written. */
    public static Data synthetic(String inputTokens, String outputTokens, String tokenizer) {
        return of(inputTokens, outputTokens, null, null, null, null, tokenizer, 1, null);
    }

    /** Reads the written lengths, applying {@code rangeRatio}, and the written {@code --images}. */
    public static Data of(
            String inputTokens,
            String outputTokens,
            Double rangeRatio,
            Path dataset,
            String datasetFormat,
            String sharedPrefix,
            String tokenizer,
            int batchSize,
            String images) {
        return new Data(
                Lengths.parse("--input-tokens", inputTokens, rangeRatio),
                Lengths.parse("--output-tokens", outputTokens, rangeRatio),
                rangeRatio,
                dataset,
                datasetFormat,
                sharedPrefix,
                tokenizer,
                batchSize,
                images == null ? null : ConfigException.parsing("--images", () -> ImageInputs.parse(images)));
    }
}
