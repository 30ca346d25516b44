package dev.llmload.segment;

import static dev.llmload.segment.SegmentTest.assertOneLineRefusal;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestIdTest {

    @Test
    void aSegmentsIdsCarryTheSegmentBetweenRunAndGlobalIndex() {
        assertThat(new RequestId("bench", new Segment(1, 3), 42).format()).isEqualTo("bench-s1of3-42");
        assertThat(new RequestId("bench", null, 42).format()).isEqualTo("bench-42");
        assertThat(RequestId.prefix("bench", new Segment(2, 3))).isEqualTo("bench-s2of3-");
        assertThat(RequestId.prefix("bench", null)).isEqualTo("bench-");
    }

    @Test
    void readsBackWhatItWrites() {
        assertThat(RequestId.parse("bench-s1of3-42", "bench")).isEqualTo(new RequestId("bench", new Segment(1, 3), 42));
        assertThat(RequestId.parse("bench-42", "bench")).isEqualTo(new RequestId("bench", null, 42));
        assertThat(RequestId.parse("2026-12-01-sim-rate10-s0of12-0", "2026-12-01-sim-rate10"))
                .isEqualTo(new RequestId("2026-12-01-sim-rate10", new Segment(0, 12), 0));
    }

    @Test
    void aRunNameThatLooksLikeASegmentIsReadAsTheRunName() {
        // Without the run name, "x-s1of3-5" could be request 5 of segment 1/3 of run "x".
        assertThat(RequestId.parse("x-s1of3-5", "x-s1of3")).isEqualTo(new RequestId("x-s1of3", null, 5));
        assertThat(RequestId.parse("x-s1of3-5", "x")).isEqualTo(new RequestId("x", new Segment(1, 3), 5));
    }

    @Test
    void refusesIdsOfAnotherRunOrShape() {
        assertOneLineRefusal(() -> RequestId.parse("other-5", "bench"), "is not of run 'bench'");
        assertOneLineRefusal(
                () -> RequestId.parse("bench-test", "bench"), "is neither bench-<index> nor bench-s<I>of<N>-<index>");
        assertOneLineRefusal(() -> RequestId.parse("bench-s1of3-", "bench"), "is neither");
        assertOneLineRefusal(
                () -> RequestId.parse("bench-s3of3-5", "bench"), "request id 'bench-s3of3-5': segment 3/3");
        assertOneLineRefusal(() -> new RequestId("", null, 1), "needs a run name");
        assertOneLineRefusal(() -> new RequestId("bench", null, -1), "not negative");
    }
}
