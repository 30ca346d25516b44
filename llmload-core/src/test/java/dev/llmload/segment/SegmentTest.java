package dev.llmload.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SegmentTest {

    private static final Map<String, String> NO_ENV = Map.of();

    @Test
    void readsAnIndexOfACount() {
        assertThat(Segment.parse("1/3", NO_ENV)).isEqualTo(new Segment(1, 3));
        assertThat(Segment.parse(" 0/1 ", NO_ENV)).isEqualTo(Segment.whole());
        assertThat(new Segment(2, 3)).hasToString("2/3");
        assertThat(new Segment(1, 3).label()).isEqualTo("s1of3");
    }

    @Test
    void autoTakesTheIndexThatAKubernetesIndexedJobGivesEachPod() {
        assertThat(Segment.parse("auto/4", Map.of("JOB_COMPLETION_INDEX", "3"))).isEqualTo(new Segment(3, 4));
        assertThat(Segment.parse("auto/4", Map.of("JOB_COMPLETION_INDEX", "0"))).isEqualTo(new Segment(0, 4));
    }

    @Test
    void refusesBadInputWithOneLine() {
        assertOneLineRefusal(() -> Segment.parse("1of3", NO_ENV), "not a segment: '1of3'");
        assertOneLineRefusal(() -> Segment.parse("-1/3", NO_ENV), "not a segment");
        assertOneLineRefusal(() -> Segment.parse("1/", NO_ENV), "not a segment");
        assertOneLineRefusal(() -> Segment.parse("99999999999/3", NO_ENV), "not a segment");
        assertOneLineRefusal(() -> Segment.parse("3/3", NO_ENV), "the index must be 0 to 2");
        assertOneLineRefusal(() -> Segment.parse("0/0", NO_ENV), "at least 1 segment");
        assertOneLineRefusal(() -> Segment.parse("auto/3", NO_ENV), "JOB_COMPLETION_INDEX, which is not set");
        assertOneLineRefusal(() -> Segment.parse("auto/3", Map.of("JOB_COMPLETION_INDEX", "")), "which is not set");
        assertOneLineRefusal(
                () -> Segment.parse("auto/3", Map.of("JOB_COMPLETION_INDEX", "two")),
                "JOB_COMPLETION_INDEX='two' is not a segment index");
        assertOneLineRefusal(
                () -> Segment.parse("auto/3", Map.of("JOB_COMPLETION_INDEX", "-1")), "is not a segment index");
        assertOneLineRefusal(
                () -> Segment.parse("auto/3", Map.of("JOB_COMPLETION_INDEX", "3")),
                "JOB_COMPLETION_INDEX=3 is outside segment 'auto/3'");
    }

    @Test
    void sixteenOverThreeIsSixFiveFive() {
        assertThat(Segment.split(16, 3)).containsExactly(6, 5, 5);
        assertThat(new Segment(0, 3).share(16)).isEqualTo(6);
        assertThat(new Segment(2, 3).share(16)).isEqualTo(5);
        // 17 = 6 + 6 + 5, 18 = 6 + 6 + 6, 2 = 1 + 1 + 0, and one segment keeps everything
        assertThat(Segment.split(17, 3)).containsExactly(6, 6, 5);
        assertThat(Segment.split(18, 3)).containsExactly(6, 6, 6);
        assertThat(Segment.split(2, 3)).containsExactly(1, 1, 0);
        assertThat(Segment.split(0, 3)).containsExactly(0, 0, 0);
        assertThat(Segment.split(1_000_000, 1)).containsExactly(1_000_000);
        assertThat(Segment.split(1_000, 7)).containsExactly(143, 143, 143, 143, 143, 143, 142);
        assertThatThrownBy(() -> new Segment(0, 3).share(-1)).hasMessageContaining("must not be negative");
    }

    @Test
    void sharesAlwaysAddUpToTheTotalAndDifferByAtMostOne() {
        for (int count = 1; count <= 12; count++) {
            for (long total = 0; total <= 100; total++) {
                long[] shares = Segment.split(total, count);
                long sum = 0;
                long min = Long.MAX_VALUE;
                long max = Long.MIN_VALUE;
                for (long share : shares) {
                    sum += share;
                    min = Math.min(min, share);
                    max = Math.max(max, share);
                }
                assertThat(sum).as("%d over %d", total, count).isEqualTo(total);
                assertThat(max - min).as("%d over %d", total, count).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void theIndexesASegmentOwnsAreItsShare() {
        // --num-requests 16 as a closed loop over 3 segments: segment 0 sends 0, 3, 6, 9, 12, 15 (6 requests),
        // segment 1 sends 1, 4, 7, 10, 13 and segment 2 sends 2, 5, 8, 11, 14 (5 each).
        Segment first = new Segment(0, 3);
        Segment second = new Segment(1, 3);
        assertThat(ordinals(first, 16)).containsExactly(0, 3, 6, 9, 12, 15);
        assertThat(ordinals(second, 16)).containsExactly(1, 4, 7, 10, 13);
        assertThat(first.owns(15)).isTrue();
        assertThat(second.owns(15)).isFalse();
        for (int count = 1; count <= 9; count++) {
            for (int total = 0; total <= 50; total++) {
                for (int index = 0; index < count; index++) {
                    Segment segment = new Segment(index, count);
                    long owned = java.util.stream.LongStream.range(0, total)
                            .filter(segment::owns)
                            .count();
                    assertThat(owned).isEqualTo(segment.share(total));
                }
            }
        }
    }

    private static long[] ordinals(Segment segment, long total) {
        long[] ordinals = new long[(int) segment.share(total)];
        for (int local = 0; local < ordinals.length; local++) {
            ordinals[local] = segment.ordinal(local);
            assertThat(segment.owns(ordinals[local])).isTrue();
        }
        return ordinals;
    }

    static void assertOneLineRefusal(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String part) {
        assertThatThrownBy(call)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(part)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
