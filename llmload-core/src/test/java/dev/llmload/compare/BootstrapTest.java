package dev.llmload.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class BootstrapTest {

    private static double[][] units(double... values) {
        double[][] units = new double[values.length][];
        for (int i = 0; i < values.length; i++) {
            units[i] = new double[] {values[i]};
        }
        return units;
    }

    @Test
    void constantSamplesGiveAZeroWidthIntervalAtTheirDifference() {
        var intervals = Bootstrap.differences(
                units(1, 1, 1),
                units(3, 3, 3, 3),
                List.of(Bootstrap.Statistic.mean(), Bootstrap.Statistic.percentile(99)),
                200,
                0.95,
                1);
        for (Bootstrap.Interval interval : intervals) {
            assertThat(interval.estimate()).isEqualTo(2.0);
            assertThat(interval.low()).isEqualTo(2.0);
            assertThat(interval.high()).isEqualTo(2.0);
            assertThat(interval.excludesZero()).isTrue();
        }
    }

    @Test
    void identicalSpreadSamplesAreNotSignificantlyDifferent() {
        double[] values = {10, 12, 9, 15, 11, 13, 8, 14, 10, 12, 11, 9};
        var interval = Bootstrap.differences(
                        units(values), units(values), List.of(Bootstrap.Statistic.mean()), 1000, 0.95, 7)
                .getFirst();
        assertThat(interval.estimate()).isEqualTo(0.0);
        assertThat(interval.low()).isNegative();
        assertThat(interval.high()).isPositive();
        assertThat(interval.excludesZero()).isFalse();
    }

    @Test
    void aClearShiftIsSignificantAndTheSeedRepeatsTheInterval() {
        double[] a = {10, 12, 9, 15, 11, 13, 8, 14, 10, 12, 11, 9};
        double[] b = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = a[i] + 20;
        }
        var first = Bootstrap.differences(units(a), units(b), List.of(Bootstrap.Statistic.percentile(50)), 500, 0.9, 3);
        var again = Bootstrap.differences(units(a), units(b), List.of(Bootstrap.Statistic.percentile(50)), 500, 0.9, 3);
        assertThat(first).isEqualTo(again);
        assertThat(first.getFirst().estimate()).isCloseTo(20.0, within(1e-9));
        assertThat(first.getFirst().excludesZero()).isTrue();
    }

    @Test
    void unitsKeepARequestsValuesTogether() {
        // One request with two gaps of 5 and one with none: every resample pools whole requests.
        double[][] a = {{5, 5}, {}};
        var interval = Bootstrap.differences(a, a, List.of(Bootstrap.Statistic.mean()), 100, 0.95, 0)
                .getFirst();
        assertThat(interval.low()).isEqualTo(0.0);
        assertThat(interval.high()).isEqualTo(0.0);
        assertThat(Bootstrap.differences(new double[][] {{}}, a, List.of(Bootstrap.Statistic.mean()), 100, 0.95, 0))
                .isEmpty();
    }
}
