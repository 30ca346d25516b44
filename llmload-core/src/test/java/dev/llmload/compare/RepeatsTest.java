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
        // mean 2, sample std 1, t(2 df) = 4.3026527: half-widths 4.3026527/√3 and 4.3026527·√(4/3).
        Repeats.Metric m = Repeats.across("mean_ttft", List.of(1.0, 2.0, 3.0));
        assertThat(m.mean()).isEqualTo(2.0);
        assertThat(m.std()).isCloseTo(1.0, within(1e-12));
        assertThat(m.ciLow()).isCloseTo(2 - 2.484138, within(1e-6));
        assertThat(m.ciHigh()).isCloseTo(2 + 2.484138, within(1e-6));
        assertThat(m.predictionLow()).isCloseTo(2 - 4.968276, within(1e-6));
        assertThat(m.predictionHigh()).isCloseTo(2 + 4.968276, within(1e-6));
    }

    @Test
    void aRunWithoutTheMetricIsLeftOutAndOneValueHasNoInterval() {
        List<Double> withGap = Arrays.asList(1.0, null, 3.0);
        Repeats.Metric two = Repeats.across("mean_ttft", withGap);
        assertThat(two.values()).containsExactly(1.0, null, 3.0);
        assertThat(two.mean()).isEqualTo(2.0);
        // std √2, t(1 df) = 12.706205: the interval of the mean is 2 ± 12.706205.
        assertThat(two.ciHigh()).isCloseTo(2 + 12.706205, within(1e-6));

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
    void studentQuantilesAsPublished() {
        assertThat(Repeats.t95(1)).isCloseTo(12.7062, within(0.0001));
        assertThat(Repeats.t95(30)).isCloseTo(2.0423, within(0.0001));
        // Published values: t(0.975; 40) = 2.021, t(0.975; 120) = 1.980.
        assertThat(Repeats.t95(40)).isCloseTo(2.021, within(0.002));
        assertThat(Repeats.t95(120)).isCloseTo(1.980, within(0.001));
    }

    /**
     * Welch's interval by hand: baseline runs 10, 12, 14 (mean 12, s² 4), runs 15, 16, 17, 20 (mean 17,
     * s² 14/3). Difference 5; s²/n 4/3 and 7/6, standard error √2.5 = 1.5811388; Welch–Satterthwaite
     * degrees of freedom 6.25 / ((4/3)²/2 + (7/6)²/3) = 4.6551724. The t quantile there was computed
     * apart from this code, by Simpson's rule on Student's density and bisection (python3, math.lgamma):
     * t(0.975; 4.6551724) = 2.6289235, so the interval is 5 ± 4.1566931 = [0.8433070, 9.1566930].
     */
    @Test
    void welchIntervalByHand() {
        var interval = Repeats.welch(List.of(10.0, 12.0, 14.0), List.of(15.0, 16.0, 17.0, 20.0), 0.95);
        assertThat(interval.estimate()).isEqualTo(5.0);
        assertThat(interval.low()).isCloseTo(0.8433070, within(1e-6));
        assertThat(interval.high()).isCloseTo(9.1566930, within(1e-6));
        assertThat(interval.excludesZero()).isTrue();
        // Swapped sides: the same interval, mirrored.
        var swapped = Repeats.welch(List.of(15.0, 16.0, 17.0, 20.0), List.of(10.0, 12.0, 14.0), 0.95);
        assertThat(swapped.low()).isCloseTo(-9.1566930, within(1e-6));
        // The same computation at 90%: t(0.95; 4.6551724) by the same independent route is 2.0484933.
        var ninety = Repeats.welch(List.of(10.0, 12.0, 14.0), List.of(15.0, 16.0, 17.0, 20.0), 0.90);
        assertThat(ninety.high() - 5).isCloseTo(2.0484933 * Math.sqrt(2.5), within(1e-6));
    }

    @Test
    void welchNeedsTwoRunsASideAndRunsThatDoNotVaryGiveTheirDifference() {
        assertThat(Repeats.welch(Arrays.asList(1.0, null), List.of(1.0, 2.0), 0.95))
                .isNull();
        var constant = Repeats.welch(List.of(0.0, 0.0), List.of(0.0, 0.0, 0.0), 0.95);
        assertThat(constant.low()).isZero();
        assertThat(constant.high()).isZero();
        assertThat(constant.excludesZero()).isFalse();
    }
}
