package dev.llmload.workload.source;

import dev.llmload.workload.length.LengthDistribution;
import java.util.random.RandomGenerator;

/**
 * Where a dataset request's {@code max_tokens} comes from: the dataset's own value (a JSONL
 * {@code output_tokens} field, the token count of a ShareGPT answer), with a distribution for
 * entries that have none, or always the distribution.
 *
 * @param distribution    sampled when the dataset gives no value, or always when overriding
 * @param overrideDataset whether the distribution wins over the dataset's values
 */
public record OutputLengths(LengthDistribution distribution, boolean overrideDataset) {

    /** The dataset's value where it has one, else a sample of {@code fallback}. */
    public static OutputLengths datasetOr(LengthDistribution fallback) {
        return new OutputLengths(fallback, false);
    }

    /** Always a sample of {@code distribution}, whatever the dataset says. */
    public static OutputLengths always(LengthDistribution distribution) {
        return new OutputLengths(distribution, true);
    }

    /**
     * The output length of one request.
     *
     * @param fromDataset the dataset's value, or 0 when it has none
     */
    int resolve(int fromDataset, RandomGenerator random) {
        return overrideDataset || fromDataset <= 0 ? distribution.sample(random) : fromDataset;
    }

    String describe() {
        return (overrideDataset ? "" : "dataset or ") + distribution.describe();
    }
}
