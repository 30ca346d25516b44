package dev.llmload.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConcurrencyPlanTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void fixedIsTheSameAtAnyTime() {
        ConcurrencyPlan plan = new ConcurrencyPlan.Fixed(16);
        assertThat(plan.concurrencyAt(0)).isEqualTo(16);
        assertThat(plan.concurrencyAt(3_600 * SECOND)).isEqualTo(16);
        assertThat(plan.length()).isEmpty();
    }

    @Test
    void rampInterpolatesToTheNearestWholeRequestThenHolds() {
        ConcurrencyPlan plan = new ConcurrencyPlan.Ramp(2, 10, Duration.ofSeconds(8));
        // One more request in flight per second: 2 + 8 · t/8.
        assertThat(plan.concurrencyAt(0)).isEqualTo(2);
        assertThat(plan.concurrencyAt(SECOND / 2)).isEqualTo(3); // 2.5 rounds up
        assertThat(plan.concurrencyAt(SECOND / 2 - 1)).isEqualTo(2);
        assertThat(plan.concurrencyAt(3 * SECOND)).isEqualTo(5);
        assertThat(plan.concurrencyAt(8 * SECOND)).isEqualTo(10);
        assertThat(plan.concurrencyAt(100 * SECOND)).isEqualTo(10);
        assertThat(new ConcurrencyPlan.Ramp(10, 1, Duration.ofSeconds(9)).concurrencyAt(3 * SECOND))
                .isEqualTo(7);
    }

    @Test
    void stepsFollowEachOtherThenEnd() {
        ConcurrencyPlan plan = new ConcurrencyPlan.Steps(List.of(
                new ConcurrencyStage(4, Duration.ofSeconds(10)),
                new ConcurrencyStage(0, Duration.ofSeconds(5)),
                new ConcurrencyStage(8, Duration.ofSeconds(10))));
        assertThat(plan.concurrencyAt(0)).isEqualTo(4);
        assertThat(plan.concurrencyAt(10 * SECOND - 1)).isEqualTo(4);
        assertThat(plan.concurrencyAt(10 * SECOND)).isZero();
        assertThat(plan.concurrencyAt(15 * SECOND)).isEqualTo(8);
        assertThat(plan.concurrencyAt(25 * SECOND)).isZero();
        assertThat(plan.length()).contains(Duration.ofSeconds(25));
    }

    @Test
    void rejectsInvalidPlans() {
        assertThatThrownBy(() -> new ConcurrencyPlan.Fixed(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ConcurrencyPlan.Ramp(1, 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ConcurrencyStage(-1, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ConcurrencyPlan.Steps(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
