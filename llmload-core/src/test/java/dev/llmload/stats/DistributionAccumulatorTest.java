package dev.llmload.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DistributionAccumulatorTest {

    @Test
    void whileTheValuesFitEverySummaryFigureIsTheExactOne() {
        double[] values = {4, 1, 3, 2, 10};
        DistributionAccumulator accumulator = new DistributionAccumulator();
        for (double value : values) {
            accumulator.add(value);
        }
        // Hand-computed: mean 4, population std sqrt((0+9+1+4+36)/5) = sqrt(10),
        // p50 at rank 2 of 1,2,3,4,10 is 3; p90 at rank 3.6 is 4 + 0.6 * 6 = 7.6.
        Summary summary = accumulator.summary();
        assertThat(summary).isEqualTo(Statistics.summarize(values));
        assertThat(summary.mean()).isEqualTo(4.0);
        assertThat(summary.std()).isCloseTo(Math.sqrt(10), within(1e-12));
        assertThat(summary.p50()).isEqualTo(3.0);
        assertThat(summary.p90()).isCloseTo(7.6, within(1e-12));
        assertThat(summary.percentilesRelativeError()).isNull();
        assertThat(accumulator.exact()).isTrue();
    }

    @Test
    void aValueAddedWithACountIsThatManySamples() {
        DistributionAccumulator counted = new DistributionAccumulator();
        counted.add(2.5, 3);
        counted.add(1.0);
        assertThat(counted.summary()).isEqualTo(Statistics.summarize(new double[] {2.5, 2.5, 2.5, 1.0}));
        counted.add(7, 0);
        assertThat(counted.count()).isEqualTo(4);
    }

    @Test
    void beyondItsCapacityPercentilesStayWithinTheStatedRelativeErrorAndMomentsStayExact() {
        SplittableRandom random = new SplittableRandom(42);
        int n = 5_000_000;
        double[] values = new double[n];
        DistributionAccumulator accumulator = new DistributionAccumulator();
        for (int i = 0; i < n; i++) {
            // Log-normal around 20 ms with a long tail, the shape of inter-token gaps.
            values[i] = 20 * Math.exp(0.8 * gaussian(random));
            accumulator.add(values[i]);
        }
        Summary exact = Statistics.summarize(values);
        Summary sketched = accumulator.summary();

        assertThat(accumulator.exact()).isFalse();
        assertThat(sketched.count()).isEqualTo(n);
        assertThat(sketched.percentilesRelativeError()).isEqualTo(DistributionAccumulator.DEFAULT_RELATIVE_ERROR);
        assertThat(sketched.min()).isEqualTo(exact.min());
        assertThat(sketched.max()).isEqualTo(exact.max());
        assertThat(sketched.mean()).isCloseTo(exact.mean(), within(exact.mean() * 1e-9));
        assertThat(sketched.std()).isCloseTo(exact.std(), within(exact.std() * 1e-9));
        for (Percentile p : Percentile.values()) {
            double truth = exact.percentile(p);
            assertThat(sketched.percentile(p)).as(p.key())
                    .isCloseTo(truth, within(truth * DistributionAccumulator.DEFAULT_RELATIVE_ERROR));
        }
    }

    @Test
    void negativeAndZeroValuesKeepTheirOrderInTheHistogram() {
        DistributionAccumulator accumulator = new DistributionAccumulator(4, 0.01);
        double[] values = {-5, -1, 0, 0, 2, 8, 8, 100};
        for (double value : values) {
            accumulator.add(value);
        }
        Summary exact = Statistics.summarize(values);
        Summary sketched = accumulator.summary();
        for (Percentile p : Percentile.values()) {
            double truth = exact.percentile(p);
            assertThat(sketched.percentile(p)).as(p.key()).isCloseTo(truth, within(Math.abs(truth) * 0.01 + 1e-12));
        }
        assertThat(sketched.min()).isEqualTo(-5.0);
    }

    @Test
    void mergingPartsEqualsAddingTheWhole() {
        SplittableRandom random = new SplittableRandom(7);
        DistributionAccumulator whole = new DistributionAccumulator(1_000, 0.001);
        DistributionAccumulator[] parts = {
                new DistributionAccumulator(1_000, 0.001), new DistributionAccumulator(1_000, 0.001),
                new DistributionAccumulator(1_000, 0.001)};
        for (int i = 0; i < 2_500; i++) {
            double value = random.nextDouble(0.5, 500);
            whole.add(value);
            // Uneven parts: the first stays exact, the others pass the capacity.
            parts[i < 300 ? 0 : i < 1_400 ? 1 : 2].add(value);
        }
        DistributionAccumulator merged = new DistributionAccumulator(1_000, 0.001);
        for (DistributionAccumulator part : parts) {
            merged.merge(part);
        }
        Summary expected = whole.summary();
        Summary actual = merged.summary();
        assertThat(actual.count()).isEqualTo(expected.count());
        assertThat(actual.mean()).isCloseTo(expected.mean(), within(1e-9));
        assertThat(actual.std()).isCloseTo(expected.std(), within(1e-9));
        // Both are the histogram of the same values: equal percentiles, not merely close ones.
        for (Percentile p : Percentile.values()) {
            assertThat(actual.percentile(p)).as(p.key()).isEqualTo(expected.percentile(p));
        }
    }

    @Test
    void mergingSmallExactPartsStaysExact() {
        DistributionAccumulator a = new DistributionAccumulator();
        DistributionAccumulator b = new DistributionAccumulator();
        a.add(1);
        a.add(3);
        b.add(2);
        a.merge(b);
        assertThat(a.exact()).isTrue();
        assertThat(a.summary()).isEqualTo(Statistics.summarize(new double[] {1, 3, 2}));
        assertThat(new DistributionAccumulator().summary()).isEqualTo(Summary.EMPTY);
    }

    @Test
    void refusesWhatWouldPoisonEveryFigure() {
        DistributionAccumulator accumulator = new DistributionAccumulator();
        assertThatThrownBy(() -> accumulator.add(Double.NaN)).hasMessageContaining("finite");
        assertThatThrownBy(() -> accumulator.add(1, -1)).hasMessageContaining("negative");
        assertThatThrownBy(() -> new DistributionAccumulator(10, 0.5)).hasMessageContaining("relative error");
        assertThat(Arrays.asList(accumulator.count())).containsExactly(0L);
    }

    private static double gaussian(SplittableRandom random) {
        double u = random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
    }
}
