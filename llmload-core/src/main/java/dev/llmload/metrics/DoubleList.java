package dev.llmload.metrics;

import java.util.Arrays;

/** A growable array of primitive doubles, so pooling millions of gaps costs no boxing. Not thread-safe. */
public final class DoubleList {

    private double[] values = new double[64];
    private int size;

    public void add(double value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    public int size() {
        return size;
    }

    public double[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
