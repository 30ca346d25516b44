package dev.llmload.metrics;

import java.util.Arrays;

/**
 * A growable array of primitive doubles, for the few views that need every value (bootstrap
 * resampling, percentile spectra); run statistics use a bounded
 * {@link dev.llmload.stats.DistributionAccumulator}. Not thread-safe.
 */
public final class DoubleList {

    private double[] values = new double[64];
    private int size;

    /** Adds one value. */
    public void add(double value) {
        add(value, 1);
    }

    /** Adds {@code count} times {@code value}. */
    public void add(double value, long count) {
        for (long i = 0; i < count; i++) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }
    }

    public int size() {
        return size;
    }

    public double[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
