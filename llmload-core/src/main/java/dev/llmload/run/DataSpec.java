package dev.llmload.run;

import dev.llmload.protocol.ImageInputs;
import java.nio.file.Path;

/**
 * Where prompts come from and how long requests are.
 *
 * @param inputTokens   synthetic prompt length: a length distribution such as {@code 512} or {@code uniform:256:768}
 * @param outputTokens  {@code max_tokens}: a length distribution; a dataset's own output lengths win unless absent
 * @param rangeRatio    vLLM's {@code --random-range-ratio}: fixed lengths L become uniform on [L(1−R), L(1+R)]
 * @param dataset       a JSONL or ShareGPT file; null for synthetic prompts
 * @param datasetFormat {@code jsonl} or {@code sharegpt}; null to tell by the file's first character
 * @param sharedPrefix  {@code COUNT:TOKENS[:uniform|:zipf:S]}: prompts start with one of COUNT shared prefixes
 * @param trace         a Mooncake-style trace replayed at its own timestamps; null for none
 * @param traceSpeed    how much faster than recorded the trace is replayed
 * @param tokenizer     an encoding name or a path to a tokenizer.json
 * @param sessions      multi-turn sessions of synthetic prompts; null for independent requests
 * @param batchSize     inputs per request of embeddings and rerank ({@code --batch-size}); 1 elsewhere
 * @param images        synthetic images in every chat request ({@code --images N:WxH}); null for none
 */
public record DataSpec(String inputTokens, String outputTokens, Double rangeRatio, Path dataset, String datasetFormat,
                       String sharedPrefix, Path trace, Double traceSpeed, String tokenizer, SessionSpec sessions,
                       int batchSize, ImageInputs images) {

    public DataSpec {
        // A configuration written before batch sizes existed reads back as 0: one input per request.
        batchSize = Math.max(1, batchSize);
    }

    /** One input per request, no images. */
    public DataSpec(String inputTokens, String outputTokens, Double rangeRatio, Path dataset, String datasetFormat,
                    String sharedPrefix, Path trace, Double traceSpeed, String tokenizer, SessionSpec sessions) {
        this(inputTokens, outputTokens, rangeRatio, dataset, datasetFormat, sharedPrefix, trace, traceSpeed, tokenizer,
                sessions, 1, null);
    }

    /** Independent requests, no sessions. */
    public DataSpec(String inputTokens, String outputTokens, Double rangeRatio, Path dataset, String datasetFormat,
                    String sharedPrefix, Path trace, Double traceSpeed, String tokenizer) {
        this(inputTokens, outputTokens, rangeRatio, dataset, datasetFormat, sharedPrefix, trace, traceSpeed, tokenizer,
                null);
    }

    public static DataSpec synthetic(String inputTokens, String outputTokens, String tokenizer) {
        return new DataSpec(inputTokens, outputTokens, null, null, null, null, null, null, tokenizer);
    }
}
