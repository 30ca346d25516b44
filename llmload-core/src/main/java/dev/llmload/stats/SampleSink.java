package dev.llmload.stats;

/**
 * Where samples of one distribution go: an exact list or a {@link DistributionAccumulator}. Lets
 * the one place that derives a metric's samples (e.g. inter-token gaps) feed either.
 */
public interface SampleSink {

    /** Adds {@code count} samples of {@code value}. */
    void add(double value, long count);

    /** Adds one sample. */
    default void add(double value) {
        add(value, 1);
    }
}
