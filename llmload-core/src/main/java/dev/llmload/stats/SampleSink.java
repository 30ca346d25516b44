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

    /**
     * Adds a duration of whole nanoseconds shared evenly by {@code parts} samples: {@code parts}
     * samples of {@code nanos / 10^6 / parts} milliseconds (one when {@code parts} is 1).
     */
    default void addNanosAsMillis(long nanos, int parts) {
        add(nanos / 1_000_000.0 / parts, parts);
    }
}
