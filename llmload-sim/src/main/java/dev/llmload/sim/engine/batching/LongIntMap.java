package dev.llmload.sim.engine.batching;

import java.util.Arrays;

/**
 * An open-addressing map from {@code long} keys to non-negative {@code int} values, so the prefix
 * cache's hash-to-block index neither boxes nor allocates per operation. Linear probing; removal
 * shifts the following entries back instead of leaving tombstones, so lookups stay short under the
 * steady insert/evict churn of a KV cache. Capacity is fixed at construction (the number of KV
 * blocks bounds the number of entries). Not thread-safe: owned by its {@link BlockPool}.
 */
final class LongIntMap {

    static final int ABSENT = -1;

    private final long[] keys;
    /** {@link #ABSENT} marks an empty slot. */
    private final int[] values;

    private final int mask;
    private int size;

    /** @param maxEntries the most entries the map will ever hold; the table stays at most half full */
    LongIntMap(int maxEntries) {
        int capacity = Integer.highestOneBit(Math.max(2, maxEntries) * 2 - 1) << 1;
        keys = new long[capacity];
        values = new int[capacity];
        Arrays.fill(values, ABSENT);
        mask = capacity - 1;
    }

    int get(long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            if (values[i] == ABSENT) {
                return ABSENT;
            }
            if (keys[i] == key) {
                return values[i];
            }
        }
    }

    /** Maps {@code key} to {@code value} (non-negative), replacing any previous value. */
    void put(long key, int value) {
        int i = slot(key);
        while (values[i] != ABSENT && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == ABSENT) {
            if (size * 2 >= keys.length) {
                throw new IllegalStateException("map is full: " + size + " entries");
            }
            size++;
        }
        keys[i] = key;
        values[i] = value;
    }

    void remove(long key) {
        int i = slot(key);
        while (values[i] != ABSENT && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == ABSENT) {
            return;
        }
        size--;
        // Backward-shift deletion: move later entries of the probe run into the hole when their
        // home slot does not lie (cyclically) between the hole and their current slot.
        int hole = i;
        for (int j = (hole + 1) & mask; values[j] != ABSENT; j = (j + 1) & mask) {
            int home = slot(keys[j]);
            boolean homeInRange = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!homeInRange) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        values[hole] = ABSENT;
    }

    int size() {
        return size;
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
