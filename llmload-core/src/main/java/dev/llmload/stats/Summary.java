package dev.llmload.stats;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Summary statistics of one distribution, as reported for every metric (TTFT, ITL, ...).
 *
 * <p>An empty distribution has {@code count == 0} and every other field {@code null}, written as
 * JSON null: absent data must never read as 0 ms. A non-empty one has every field set.
 *
 * @param count number of samples
 * @param mean  arithmetic mean
 * @param std   population standard deviation (divides by n, like {@code numpy.std})
 * @param min   smallest sample
 * @param max   largest sample
 * @param p50   50th percentile, by linear interpolation between closest ranks (see {@link Statistics})
 * @param p90   90th percentile
 * @param p95   95th percentile
 * @param p99   99th percentile
 * @param p99_9 99.9th percentile
 * @param percentilesRelativeError null when the percentiles are exact; otherwise the bound on their
 *              relative error, for a distribution too large to keep every value
 *              (see {@link DistributionAccumulator})
 */
@JsonIgnoreProperties(value = "low_confidence", allowGetters = true)
public record Summary(
        long count,
        Double mean,
        Double std,
        Double min,
        Double max,
        Double p50,
        Double p90,
        Double p95,
        Double p99,
        Double p99_9,

        @JsonProperty("percentiles_relative_error") @JsonInclude(JsonInclude.Include.NON_NULL)
        Double percentilesRelativeError) {

    /** The summary of no samples. */
    public static final Summary EMPTY = new Summary(0, null, null, null, null, null, null, null, null, null);

    /** A summary with exact percentiles. */
    public Summary(
            long count,
            Double mean,
            Double std,
            Double min,
            Double max,
            Double p50,
            Double p90,
            Double p95,
            Double p99,
            Double p99_9) {
        this(count, mean, std, min, max, p50, p90, p95, p99, p99_9, null);
    }

    public Summary {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        boolean allAbsent = mean == null
                && std == null
                && min == null
                && max == null
                && p50 == null
                && p90 == null
                && p95 == null
                && p99 == null
                && p99_9 == null;
        boolean allPresent = mean != null
                && std != null
                && min != null
                && max != null
                && p50 != null
                && p90 != null
                && p95 != null
                && p99 != null
                && p99_9 != null;
        if (count == 0 ? !allAbsent : !allPresent) {
            throw new IllegalArgumentException(
                    "an empty summary must have every statistic null and a non-empty one none null: " + count);
        }
        if (percentilesRelativeError != null && !(percentilesRelativeError > 0 && count > 0)) {
            throw new IllegalArgumentException(
                    "a relative error belongs to a non-empty summary and is positive: " + percentilesRelativeError);
        }
    }

    /** Whether there were no samples. */
    @JsonIgnore
    public boolean isEmpty() {
        return count == 0;
    }

    /** The value of {@code percentile}, or null when empty. */
    public Double percentile(Percentile percentile) {
        return switch (percentile) {
            case P50 -> p50;
            case P90 -> p90;
            case P95 -> p95;
            case P99 -> p99;
            case P99_9 -> p99_9;
        };
    }

    /**
     * Whether {@code percentile} rests on too few samples to be trusted: fewer than
     * {@link Percentile#minimumConfidentCount()} (p99 below 100 samples, p99.9 below 1,000).
     */
    public boolean isLowConfidence(Percentile percentile) {
        return count < percentile.minimumConfidentCount();
    }

    /** The percentiles of this summary that rest on too few samples, as the report lists them. */
    @JsonProperty("low_confidence")
    public java.util.List<String> lowConfidence() {
        if (count == 0) {
            return java.util.List.of();
        }
        return java.util.Arrays.stream(Percentile.values())
                .filter(this::isLowConfidence)
                .map(Percentile::key)
                .toList();
    }
}
