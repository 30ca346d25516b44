package dev.llmload.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FixedLatencyModelTest {

    @Test
    void ttftGrowsWithThePromptAndSpeedupDividesIt() {
        var model = new FixedLatencyModel(50, 0.5, 20, 0, 2, 100);
        var random = new SplittableRandom(1);
        assertThat(model.ttftNanos(100, random)).isEqualTo(50_000_000L); // (50 + 100 × 0.5) / 2 ms
        assertThat(model.itlNanos(random)).isEqualTo(10_000_000L);
    }

    @Test
    void jitterStaysWithinItsShare() {
        var model = new FixedLatencyModel(100, 0, 10, 0.2, 1, 100);
        var random = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) {
            assertThat(model.itlNanos(random)).isBetween(8_000_000L, 12_000_000L);
        }
    }

    @Test
    void lengthsFollowIgnoreEosMinTokensAndTheMean() {
        var model = new FixedLatencyModel(0, 0, 0, 0, 1, 50);
        var random = new SplittableRandom(3);
        assertThat(model.plan(30, 0, true, random)).isEqualTo(new FixedLatencyModel.Plan(30, FinishReason.LENGTH));
        long sum = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            var plan = model.plan(1_000_000, 0, false, random);
            assertThat(plan.reason()).isEqualTo(FinishReason.STOP);
            sum += plan.outputTokens();
        }
        assertThat(sum / (double) n).isBetween(48.0, 52.0);
        for (int i = 0; i < 200; i++) {
            var plan = model.plan(60, 40, false, random);
            assertThat(plan.outputTokens()).isBetween(40, 60);
            assertThat(plan.reason()).isEqualTo(plan.outputTokens() == 60 ? FinishReason.LENGTH : FinishReason.STOP);
        }
    }
}
