package dev.llmload.load;

import java.util.Arrays;

/** A growable array of primitive longs: the server's per-event token counts of a response. Not thread-safe. */
final class LongList {

    private long[] values = new long[16];
    private int size;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    int size() {
        return size;
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
