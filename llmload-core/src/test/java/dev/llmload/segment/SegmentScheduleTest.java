package dev.llmload.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.Schedule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SegmentScheduleTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void dealsRequestsRoundRobinAndKeepsTheirIntendedTimes() {
        long[] offsets = {0, 10, 20, 30, 40, 50, 60};
        assertThat(SegmentSchedule.of(new Segment(0, 3), offsets))
                .isEqualTo(new SegmentSchedule(new int[] {0, 3, 6}, new long[] {0, 30, 60}));
        assertThat(SegmentSchedule.of(new Segment(1, 3), offsets))
                .isEqualTo(new SegmentSchedule(new int[] {1, 4}, new long[] {10, 40}));
        assertThat(SegmentSchedule.of(new Segment(2, 3), offsets))
                .isEqualTo(new SegmentSchedule(new int[] {2, 5}, new long[] {20, 50}));
        assertThat(SegmentSchedule.of(Segment.whole(), offsets))
                .isEqualTo(new SegmentSchedule(new int[] {0, 1, 2, 3, 4, 5, 6}, offsets));
        assertThat(SegmentSchedule.of(new Segment(2, 3), new long[] {0, 10}))
                .isEqualTo(new SegmentSchedule(new int[0], new long[0]));
    }

    @Test
    void aThousandPoissonRequestsOverThreeSegmentsAreTheWholeScheduleAtAThirdOfTheRateEach() {
        // 20 requests/s for 1,000 requests: about 50 s.
        Schedule whole = Schedule.build(new ArrivalProcess.Poisson(20), 1_000, null, 42);
        long[] offsets = whole.offsetsNanos();
        List<SegmentSchedule> parts = new ArrayList<>();
        for (int index = 0; index < 3; index++) {
            parts.add(SegmentSchedule.of(new Segment(index, 3), offsets));
        }
        assertThat(parts).extracting(SegmentSchedule::size).containsExactly(334, 333, 333);

        // The union is the whole, each request once, at its own intended time.
        long[] union = new long[offsets.length];
        java.util.Arrays.fill(union, -1);
        for (SegmentSchedule part : parts) {
            for (int local = 0; local < part.size(); local++) {
                assertThat(union[part.requestIndex(local)])
                        .as("request %d sent twice", part.requestIndex(local))
                        .isEqualTo(-1);
                union[part.requestIndex(local)] = part.offsetNanos(local);
            }
        }
        assertThat(union).containsExactly(offsets);

        // In every 5-second window each segment sends a third of the whole, give or take one request,
        // so each segment's rate is the whole's over 3 throughout the run, not only on average.
        long end = offsets[offsets.length - 1] + 1;
        for (long from = 0; from < end; from += 5 * SECOND) {
            long to = from + 5 * SECOND;
            int inWhole = countWithin(offsets, from, to);
            for (SegmentSchedule part : parts) {
                int inPart = countWithin(part.offsetsNanos(), from, to);
                assertThat(Math.abs(inPart - inWhole / 3.0))
                        .as("window at %d s", from / SECOND)
                        .isLessThanOrEqualTo(1.0);
            }
        }
        double seconds = (double) end / SECOND;
        for (SegmentSchedule part : parts) {
            assertThat(part.size() / seconds)
                    .isCloseTo(offsets.length / seconds / 3, org.assertj.core.data.Offset.offset(1.0 / seconds));
        }
    }

    @Test
    void sessionsGoWholeToOneSegmentInTheOrderOfTheirFirstRequest() {
        // Sessions 7, 9, 5, 8 start in that order, so they are numbered 0, 1, 2, 3: over two segments,
        // segment 0 takes sessions 7 and 5, segment 1 takes 9 and 8.
        long[] offsets = {0, 1, 2, 3, 4, 5, 6, 7};
        long[] sessions = {7, 7, 9, 5, 9, 7, 5, 8};
        assertThat(SegmentSchedule.of(new Segment(0, 2), offsets, sessions))
                .isEqualTo(new SegmentSchedule(new int[] {0, 1, 3, 5, 6}, new long[] {0, 1, 3, 5, 6}));
        assertThat(SegmentSchedule.of(new Segment(1, 2), offsets, sessions))
                .isEqualTo(new SegmentSchedule(new int[] {2, 4, 7}, new long[] {2, 4, 7}));
    }

    @Test
    void aThousandRequestsOfInterleavedSessionsKeepEverySessionWhole() {
        // 1,000 requests of sessions of 1 to 6 turns that overlap in time, as a multi-turn trace has them.
        SplittableRandom random = new SplittableRandom(7);
        List<long[]> requests = new ArrayList<>(); // {offset, session}
        long session = 0;
        long start = 0;
        while (requests.size() < 1_000) {
            int turns = 1 + random.nextInt(6);
            for (int turn = 0; turn < turns && requests.size() < 1_000; turn++) {
                requests.add(new long[] {start + turn * 3 * SECOND, session});
            }
            session++;
            start += SECOND / 2;
        }
        requests.sort((a, b) -> Long.compare(a[0], b[0]));
        long[] offsets = requests.stream().mapToLong(r -> r[0]).toArray();
        long[] keys = requests.stream().mapToLong(r -> r[1]).toArray();

        Map<Long, Integer> segmentOfSession = new HashMap<>();
        int[] sessionsPerSegment = new int[3];
        int total = 0;
        for (int index = 0; index < 3; index++) {
            SegmentSchedule part = SegmentSchedule.of(new Segment(index, 3), offsets, keys);
            total += part.size();
            for (int local = 0; local < part.size(); local++) {
                long key = keys[part.requestIndex(local)];
                Integer before = segmentOfSession.put(key, index);
                if (before == null) {
                    sessionsPerSegment[index]++;
                } else {
                    assertThat(before).as("session %d split", key).isEqualTo(index);
                }
                assertThat(part.offsetNanos(local)).isEqualTo(offsets[part.requestIndex(local)]);
            }
        }
        assertThat(total).isEqualTo(1_000);
        assertThat(segmentOfSession).hasSize((int) session);
        int sessionsInAll = (int) session;
        for (int count : sessionsPerSegment) {
            assertThat(Math.abs(count - sessionsInAll / 3.0)).isLessThanOrEqualTo(1.0);
        }
    }

    @Test
    void refusesKeysThatDoNotMatchTheRequests() {
        assertThatThrownBy(() -> SegmentSchedule.of(new Segment(0, 2), new long[] {0, 1}, new long[] {1}))
                .hasMessageContaining("one session key per request: 2 requests, 1 keys");
    }

    private static int countWithin(long[] offsets, long from, long to) {
        int count = 0;
        for (long offset : offsets) {
            if (offset >= from && offset < to) {
                count++;
            }
        }
        return count;
    }
}
