package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Moments on the request's clock become offsets from the run's start; moments that never happened stay so. */
class RequestTimingsTest {

    @Test
    void offsetsFromTheRunStartKeepMomentsThatNeverHappened() {
        RequestTimings absolute =
                new RequestTimings(1_000, 1_500, 2_000, RequestTimings.NEVER, RequestTimings.NEVER, 9_000, new long[0]);

        RequestTimings relative = absolute.relativeTo(1_000);

        assertThat(relative)
                .usingRecursiveComparison()
                .isEqualTo(new RequestTimings(
                        0, 500, 1_000, RequestTimings.NEVER, RequestTimings.NEVER, 8_000, new long[0]));
        assertThat(relative.lastTokenNanos()).isEqualTo(RequestTimings.NEVER);
    }

    @Test
    void tokenEventsMoveWithTheOriginAndTheLastOneEndsAStream() {
        RequestTimings absolute = new RequestTimings(100, 120, 150, 160, 170, 400, new long[] {160, 170, 390});

        RequestTimings relative = absolute.relativeTo(100);

        assertThat(relative.tokenEventNanos()).containsExactly(60, 70, 290);
        assertThat(relative.firstTokenNanos()).isEqualTo(60);
        assertThat(relative.firstContentNanos()).isEqualTo(70);
        assertThat(relative.lastTokenNanos()).isEqualTo(290);
        assertThat(absolute.tokenEventNanos()).as("the original is left alone").containsExactly(160, 170, 390);
    }

    @Test
    void aRequestNeverSentWentOutAndEndedWhenTheRunEndedWithNoResponse() {
        RequestTimings never = RequestTimings.neverSent(5_000, 7_000);

        assertThat(never.intendedSendNanos()).isEqualTo(5_000);
        assertThat(never.sentNanos()).isEqualTo(7_000);
        assertThat(never.endNanos()).isEqualTo(7_000);
        assertThat(never.firstByteNanos()).isEqualTo(RequestTimings.NEVER);
        assertThat(never.firstTokenNanos()).isEqualTo(RequestTimings.NEVER);
        assertThat(never.firstContentNanos()).isEqualTo(RequestTimings.NEVER);
        assertThat(never.tokenEventNanos()).isEmpty();
    }
}
