package dev.llmload.stats;

/**
 * The percentiles every summary reports, with the report key of each and the sample count below
 * which its value is flagged as low confidence.
 *
 * <p>The confidence rule: percentile p describes the slowest (100 − p)% of the samples, so it
 * rests on at least one sample beyond it only when there are 100 / (100 − p) samples or more
 * (p99 needs 100, p99.9 needs 1,000). Below that it is an interpolation towards the maximum.
 */
public enum Percentile {
    P50(50, "p50", 2),
    P90(90, "p90", 10),
    P95(95, "p95", 20),
    P99(99, "p99", 100),
    P99_9(99.9, "p99_9", 1_000);

    private final double value;
    private final String key;
    private final long minimumConfidentCount;

    Percentile(double value, String key, long minimumConfidentCount) {
        this.value = value;
        this.key = key;
        this.minimumConfidentCount = minimumConfidentCount;
    }

    /** The percentile as a number from 0 to 100, e.g. 99.9. */
    public double value() {
        return value;
    }

    /** The key in reports, e.g. {@code p99_9}. */
    public String key() {
        return key;
    }

    /** The fewest samples for which this percentile is not flagged as low confidence. */
    public long minimumConfidentCount() {
        return minimumConfidentCount;
    }
}
