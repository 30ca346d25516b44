package dev.llmload.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RepeatsTest {

    @Test
    void threeRunsByHand() {
        // mean 2, sample std 1, t(2 df) = 4.303: half-widths 4.303/√3 and 4.303·√(4/3).
        Repeats.Metric m = Repeats.across("mean_ttft", List.of(1.0, 2.0, 3.0));
        assertThat(m.mean()).isEqualTo(2.0);
        assertThat(m.std()).isCloseTo(1.0, within(1e-12));
        assertThat(m.ciLow()).isCloseTo(2 - 2.484339, within(1e-6));
        assertThat(m.ciHigh()).isCloseTo(2 + 2.484339, within(1e-6));
        assertThat(m.predictionLow()).isCloseTo(2 - 4.968677, within(1e-6));
        assertThat(m.predictionHigh()).isCloseTo(2 + 4.968677, within(1e-6));
    }

    @Test
    void aRunWithoutTheMetricIsLeftOutAndOneValueHasNoInterval() {
        List<Double> withGap = Arrays.asList(1.0, null, 3.0);
        Repeats.Metric two = Repeats.across("mean_ttft", withGap);
        assertThat(two.values()).containsExactly(1.0, null, 3.0);
        assertThat(two.mean()).isEqualTo(2.0);
        // std √2, t(1 df) = 12.706: the interval of the mean is 2 ± 12.706.
        assertThat(two.ciHigh()).isCloseTo(2 + 12.706, within(1e-9));

        Repeats.Metric one = Repeats.across("mean_ttft", Arrays.asList(null, 5.0, null));
        assertThat(one.mean()).isEqualTo(5.0);
        assertThat(one.std()).isNull();
        assertThat(one.predictionLow()).isNull();
    }

    /**
     * What the intervals promise, checked by drawing: runs that vary as one normal distribution put
     * a fourth run inside the prediction interval of three 95% of the time, and the true mean inside
     * the interval of the mean 95% of the time. A half-width without the √(1 + 1/n) of a new run, or
     * a normal quantile in place of Student's, falls well short of it.
     */
    @Test
    void intervalsCoverAtTheirConfidenceWhenRunsVaryNormally() {
        SplittableRandom random = new SplittableRandom(42);
        int trials = 20_000;
        int further = 0;
        int means = 0;
        for (int trial = 0; trial < trials; trial++) {
            List<Double> three = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                three.add(30 + 2 * random.nextGaussian());
            }
            double fourth = 30 + 2 * random.nextGaussian();
            Repeats.Metric m = Repeats.across("mean_ttft", three);
            further += fourth >= m.predictionLow() && fourth <= m.predictionHigh() ? 1 : 0;
            means += 30 >= m.ciLow() && 30 <= m.ciHigh() ? 1 : 0;
        }
        // 20,000 draws: the binomial standard error is 0.0015, so ±0.01 is over six of them.
        assertThat(further / (double) trials).isCloseTo(0.95, within(0.01));
        assertThat(means / (double) trials).isCloseTo(0.95, within(0.01));
    }

    @Test
    void studentQuantilesFromTheTableAndBeyondIt() {
        assertThat(Repeats.t95(1)).isEqualTo(12.706);
        assertThat(Repeats.t95(30)).isEqualTo(2.042);
        // Published values: t(0.975; 40) = 2.021, t(0.975; 120) = 1.980.
        assertThat(Repeats.t95(40)).isCloseTo(2.021, within(0.002));
        assertThat(Repeats.t95(120)).isCloseTo(1.980, within(0.001));
    }
}
