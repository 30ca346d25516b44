package dev.llmload.segment;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The part of an open-loop schedule that one segment sends: the global indexes of its requests and
 * their intended offsets, unchanged, so that every segment measures from the same shared start and
 * the union of all segments is the single run's schedule, request for request and time for time.
 *
 * <p>Units are dealt round-robin in schedule order: unit k goes to segment k mod N. A unit is one
 * request, or, when requests belong to sessions, one whole session (sessions numbered in the order
 * of their first request), so a session is never split. Round-robin is the balanced interleave for
 * equal segments: in every stretch of m consecutive units each segment has ⌊m/N⌋ or ⌈m/N⌉ of them,
 * so at every moment of the run each segment's arrival rate is the whole rate over N, and each
 * segment's count is within one of every other's. Assigning stretches of time would give each
 * segment the full rate for 1/N of the run; assigning at random would leave counts and rates
 * uneven by √m. Each segment's gaps are sums of N consecutive gaps of the whole, so a segment's own
 * arrivals are smoother than the whole's: the server sees the union, which is the whole.
 *
 * @param requestIndexes the segment's requests as indexes into the whole schedule, ascending
 * @param offsetsNanos   their intended offsets from the shared start, as in the whole schedule;
 *                       the accessors return copies
 */
public record SegmentSchedule(int[] requestIndexes, long[] offsetsNanos) {

    public SegmentSchedule {
        if (requestIndexes.length != offsetsNanos.length) {
            throw new IllegalArgumentException("one offset per request index: " + requestIndexes.length + " indexes, "
                    + offsetsNanos.length + " offsets");
        }
        requestIndexes = requestIndexes.clone();
        offsetsNanos = offsetsNanos.clone();
    }

    /** Segment {@code segment}'s share of a schedule in which every offset is one unit (a request, or a session's start). */
    public static SegmentSchedule of(Segment segment, long[] offsetsNanos) {
        int size = (int) segment.share(offsetsNanos.length);
        int[] indexes = new int[size];
        long[] offsets = new long[size];
        for (int local = 0; local < size; local++) {
            int global = (int) segment.ordinal(local);
            indexes[local] = global;
            offsets[local] = offsetsNanos[global];
        }
        return new SegmentSchedule(indexes, offsets);
    }

    /**
     * Segment {@code segment}'s share of a schedule of requests that belong to sessions: request k
     * belongs to session {@code sessionKeys[k]}, every request of a session goes to the segment of
     * the session, and sessions are dealt round-robin in the order of their first request.
     */
    public static SegmentSchedule of(Segment segment, long[] offsetsNanos, long[] sessionKeys) {
        if (sessionKeys.length != offsetsNanos.length) {
            throw new IllegalArgumentException("one session key per request: " + offsetsNanos.length + " requests, "
                    + sessionKeys.length + " keys");
        }
        Map<Long, Long> sessionNumbers = new HashMap<>();
        int[] indexes = new int[offsetsNanos.length];
        int size = 0;
        for (int k = 0; k < offsetsNanos.length; k++) {
            long number = sessionNumbers.computeIfAbsent(sessionKeys[k], key -> (long) sessionNumbers.size());
            if (segment.owns(number)) {
                indexes[size++] = k;
            }
        }
        indexes = Arrays.copyOf(indexes, size);
        long[] offsets = new long[size];
        for (int i = 0; i < size; i++) {
            offsets[i] = offsetsNanos[indexes[i]];
        }
        return new SegmentSchedule(indexes, offsets);
    }

    @Override
    public int[] requestIndexes() {
        return requestIndexes.clone();
    }

    @Override
    public long[] offsetsNanos() {
        return offsetsNanos.clone();
    }

    /** The number of requests this segment sends. */
    public int size() {
        return requestIndexes.length;
    }

    /** The global index of this segment's {@code local}-th request. */
    public int requestIndex(int local) {
        return requestIndexes[local];
    }

    /** The intended offset of this segment's {@code local}-th request, from the shared start. */
    public long offsetNanos(int local) {
        return offsetsNanos[local];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SegmentSchedule that
                && Arrays.equals(requestIndexes, that.requestIndexes)
                && Arrays.equals(offsetsNanos, that.offsetsNanos);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(requestIndexes) + Arrays.hashCode(offsetsNanos);
    }

    @Override
    public String toString() {
        return "SegmentSchedule[" + requestIndexes.length + " requests]";
    }
}
