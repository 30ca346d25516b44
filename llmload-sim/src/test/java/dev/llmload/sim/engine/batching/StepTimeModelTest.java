package dev.llmload.sim.engine.batching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StepTimeModelTest {

    private static StepShape prefill(int tokens) {
        return new StepShape(tokens, 0, 0, tokens, 1, 0.0);
    }

    private static StepShape decode(int sequences, long context, double kvUsage) {
        return new StepShape(0, sequences, sequences, context, sequences, kvUsage);
    }

    @Test
    void dynamoPolynomialMatchesThePublishedFit() {
        StepTimeModel m = StepTimeProfile.DYNAMO.model(Map.of());
        assertThat(m.stepMillis(prefill(1000))).isCloseTo(32.1, within(0.1));
        assertThat(m.stepMillis(prefill(4000))).isCloseTo(83.97, within(0.1));
        assertThat(m.stepMillis(decode(1, 100, 0.1))).isCloseTo(10.88, within(0.01));
        assertThat(m.stepMillis(decode(1, 100, 0.5))).isCloseTo(26.31, within(0.01));
        assertThat(m.stepMillis(decode(1, 100, 1.0))).isCloseTo(34.01, within(0.01));
        // A mixed step pays both.
        assertThat(m.stepMillis(new StepShape(1000, 1, 1, 1100, 2, 0.1))).isCloseTo(32.1 + 10.88, within(0.1));
        assertThat(m.stepMillis(new StepShape(0, 0, 0, 0, 0, 0))).isZero();
    }

    @Test
    void coefficientsCanBeOverriddenByNameAndUnknownNamesAreRejected() {
        StepTimeModel m = StepTimeProfile.DYNAMO.model(Map.of("prefill_c", 0.0, "prefill_a", 0.0));
        assertThat(m.stepMillis(prefill(1000))).isCloseTo(15.18344, within(1e-9));
        assertThat(m.coefficients()).containsEntry("prefill_b", 1.518344e-2).containsEntry("prefill_c", 0.0);
        assertThatThrownBy(() -> StepTimeProfile.DYNAMO.model(Map.of("mfu", 0.3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mfu");
    }

    @Test
    void rooflineIsBandwidthBoundForDecodeAndComputeBoundForLongPrefills() {
        StepTimeModel m = StepTimeProfile.H100_LLAMA3_8B.model(Map.of());
        // One sequence: overheads + reading 16 GB of weights at 75% of 3.35 TB/s.
        double single = m.stepMillis(decode(1, 1000, 0));
        assertThat(single)
                .isCloseTo(1.15 + 0.004 + 1000 * (16.06e9 + 1000 * 131072.0) / (3.35e12 * 0.75), within(1e-9));
        assertThat(single).isBetween(6.0, 9.0);
        // 256 sequences of 1k context add their KV reads.
        assertThat(m.stepMillis(decode(256, 256_000, 0))).isGreaterThan(single + 10);
        // 4k prompt tokens: 2 FLOPs per parameter per token at half of 989.5 TFLOPS.
        assertThat(m.stepMillis(prefill(4000)))
                .isCloseTo(1.154 + 1000 * 2 * 8.03e9 * 4000 / (989.5e12 * 0.5), within(1e-9));
    }

    @Test
    void speedupDividesAndJitterKeepsTheMeanAndRepeatsWithTheSeed() {
        StepTimeModel m = StepTimeProfile.DYNAMO.model(Map.of());
        StepShape shape = prefill(1000);
        assertThat(new StepTimer(m, 10, 0, 1).nanos(shape)).isEqualTo(Math.round(m.stepMillis(shape) * 1e5));

        StepTimer jittered = new StepTimer(m, 1, 0.3, 7);
        StepTimer again = new StepTimer(m, 1, 0.3, 7);
        double sum = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            long t = jittered.nanos(shape);
            assertThat(again.nanos(shape)).isEqualTo(t);
            sum += t;
            min = Math.min(min, t);
            max = Math.max(max, t);
        }
        double expected = m.stepMillis(shape) * 1e6;
        assertThat(sum / n).isCloseTo(expected, within(0.02 * expected));
        assertThat((double) min).isLessThan(0.7 * expected);
        assertThat((double) max).isGreaterThan(1.4 * expected);
    }
}
