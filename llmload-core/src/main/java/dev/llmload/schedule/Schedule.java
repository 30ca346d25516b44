package dev.llmload.schedule;

import java.time.Duration;
import java.util.Arrays;
import java.util.PrimitiveIterator;
import java.util.SplittableRandom;

/**
 * The intended send offsets of an open-loop run, computed up front so that sending never depends
 * on responses (no coordinated omission): request i is due {@code offsetNanos(i)} after the run
 * start. Offsets are non-decreasing.
 *
 * @param offsetsNanos the offsets; the accessor returns a copy, {@link #offsetNanos(int)} does not copy
 */
public record Schedule(long[] offsetsNanos) {

    public Schedule {
        offsetsNanos = offsetsNanos.clone();
    }

    /**
     * Draws the schedule of {@code process} with a {@link SplittableRandom} seeded with
     * {@code seed} (a specified algorithm in {@code java.base}: the same seed gives the same
     * schedule on every JDK). The run stops at whichever bound comes first.
     *
     * @param maxCount    the most requests, or -1 for no count bound (--num-requests)
     * @param maxDuration only offsets strictly before it are kept, or null for no time bound (--duration)
     * @throws IllegalArgumentException if an endless process is given neither bound
     */
    public static Schedule build(ArrivalProcess process, int maxCount, Duration maxDuration, long seed) {
        if (maxCount < -1) {
            throw new IllegalArgumentException("maxCount must be -1 (no bound) or a count: " + maxCount);
        }
        if (maxDuration != null && (maxDuration.isNegative() || maxDuration.isZero())) {
            throw new IllegalArgumentException("maxDuration must be above 0: " + maxDuration);
        }
        if (maxCount == -1 && maxDuration == null && !process.isFinite()) {
            throw new IllegalArgumentException(
                    "an endless arrival process needs a request count or a duration to bound it: " + process);
        }
        long durationNanos = maxDuration == null ? Long.MAX_VALUE : maxDuration.toNanos();
        long countBound = maxCount == -1 ? Long.MAX_VALUE : maxCount;
        PrimitiveIterator.OfLong arrivals = process.arrivals(new SplittableRandom(seed));
        long[] offsets = new long[(int) Math.min(countBound, 1024)];
        int size = 0;
        while (size < countBound && arrivals.hasNext()) {
            long offset = arrivals.nextLong();
            if (offset >= durationNanos) {
                break;
            }
            if (size == offsets.length) {
                offsets = Arrays.copyOf(offsets, Math.addExact(size, size / 2 + 1));
            }
            offsets[size++] = offset;
        }
        return new Schedule(size == offsets.length ? offsets : Arrays.copyOf(offsets, size));
    }

    @Override
    public long[] offsetsNanos() {
        return offsetsNanos.clone();
    }

    /** The number of requests. */
    public int size() {
        return offsetsNanos.length;
    }

    /** The intended send offset of request {@code index}, in nanoseconds from the run start. */
    public long offsetNanos(int index) {
        return offsetsNanos[index];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Schedule schedule && Arrays.equals(offsetsNanos, schedule.offsetsNanos);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(offsetsNanos);
    }

    @Override
    public String toString() {
        return "Schedule[" + offsetsNanos.length + " requests"
                + (offsetsNanos.length == 0 ? "" : ", last at " + offsetsNanos[offsetsNanos.length - 1] + " ns") + "]";
    }
}
