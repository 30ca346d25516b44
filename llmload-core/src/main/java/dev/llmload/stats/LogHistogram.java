package dev.llmload.stats;

import java.util.Arrays;

/**
 * Counts of non-negative values in logarithmic buckets of relative width {@code 2α/(1−α)}, so that
 * the midpoint of a value's bucket is within a relative error {@code α} of the value (the bucket
 * rule of DDSketch, Masson et al. 2019; {@link LogBuckets} finds a value's bucket). Zero (and any
 * value below the smallest normal double) is counted apart. Memory grows with the spread of
 * the values, not their number: values from 1 µs to 1 day in milliseconds at α = 0.1% span about
 * 12,000 buckets (96 KB).
 *
 * <p>Owned by the thread of its {@link DistributionAccumulator}; not thread-safe.
 */
final class LogHistogram {

    private final double relativeError;
    private final LogBuckets buckets;
    private final double logGamma;
    private long zeroCount;
    /** counts[i] holds the bucket with index {@code offset + i}. */
    private long[] counts = new long[0];

    private int offset;
    private long total;

    LogHistogram(double relativeError) {
        this.relativeError = relativeError;
        this.buckets = LogBuckets.of(relativeError);
        this.logGamma = buckets.logGamma();
    }

    double relativeError() {
        return relativeError;
    }

    long total() {
        return total;
    }

    void add(double value, long count) {
        if (value < 0) {
            throw new IllegalArgumentException("the histogram holds non-negative values: " + value);
        }
        total += count;
        if (value == 0 || value < Double.MIN_NORMAL) {
            zeroCount += count;
            return;
        }
        int index = buckets.index(value);
        ensure(index);
        counts[index - offset] += count;
    }

    void merge(LogHistogram other) {
        if (other.relativeError != relativeError) {
            throw new IllegalArgumentException(
                    "histograms of relative error " + relativeError + " and " + other.relativeError + " do not merge");
        }
        zeroCount += other.zeroCount;
        total += other.total;
        for (int i = 0; i < other.counts.length; i++) {
            if (other.counts[i] != 0) {
                int index = other.offset + i;
                ensure(index);
                counts[index - offset] += other.counts[i];
            }
        }
    }

    /**
     * The value at 0-based {@code rank} among the counted values in ascending order, as the midpoint
     * of its bucket (zero for the zero bucket).
     */
    double valueAtRank(long rank) {
        if (rank < zeroCount) {
            return 0;
        }
        long seen = zeroCount;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (rank < seen) {
                int index = offset + i;
                // The bucket (γ^(i−1), γ^i] has midpoint 2γ^i / (γ + 1), within α of every value in it.
                return 2 * Math.exp(index * logGamma) / (Math.exp(logGamma) + 1);
            }
        }
        throw new IllegalArgumentException("rank " + rank + " of " + total + " values");
    }

    private void ensure(int index) {
        if (counts.length == 0) {
            counts = new long[64];
            offset = index - 32;
            return;
        }
        if (index < offset) {
            int grow = Math.max(offset - index, counts.length / 2);
            long[] wider = new long[counts.length + grow];
            System.arraycopy(counts, 0, wider, grow, counts.length);
            counts = wider;
            offset -= grow;
        } else if (index >= offset + counts.length) {
            int grow = Math.max(index - offset - counts.length + 1, counts.length / 2);
            counts = Arrays.copyOf(counts, counts.length + grow);
        }
    }
}
