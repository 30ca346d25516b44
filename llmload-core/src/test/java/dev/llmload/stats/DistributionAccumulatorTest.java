package dev.llmload.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
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
            assertThat(sketched.percentile(p))
                    .as(p.key())
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
            new DistributionAccumulator(1_000, 0.001),
            new DistributionAccumulator(1_000, 0.001),
            new DistributionAccumulator(1_000, 0.001)
        };
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
    void durationsInWholeNanosecondsHaveExactMomentsWhereStreamingDoublesDrift() {
        // Three gaps of 10^15, 10^15 + 1 and 10^15 + 2 ns (about 11.6 days, 1 ns apart), past the
        // exact capacity. By hand: mean 10^15 + 1 ns = 1,000,000,000.000001 ms; variance
        // ((−1)² + 0² + 1²) / 3 = 2/3 ns², so std √(2/3) · 10^-6 ms = 8.16496580927726e-7 ms.
        DistributionAccumulator exact = new DistributionAccumulator(0, 0.001);
        DistributionAccumulator streamed = new DistributionAccumulator(0, 0.001);
        for (long nanos = 1_000_000_000_000_000L; nanos < 1_000_000_000_000_003L; nanos++) {
            exact.addNanosAsMillis(nanos);
            streamed.add(nanos / 1e6);
        }
        assertThat(exact.summary().mean()).isEqualTo(1_000_000_000.000001);
        assertThat(exact.summary().std()).isEqualTo(8.16496580927726e-7);
        // The same gaps as doubles in milliseconds are 1.2e-7 ms apart from their nearest
        // neighbours, and Welford's update on them is 1.4% off.
        assertThat(streamed.summary().std())
                .isNotEqualTo(exact.summary().std())
                .isCloseTo(8.16496580927726e-7, within(8.16496580927726e-7 * 0.02));
        assertThat(exact.summary().min()).isEqualTo(1e9);
        assertThat(exact.summary().max()).isEqualTo(1_000_000_000_000_002L / 1e6);
    }

    @Test
    void aGapSpreadOverItsTokensCountsEachShareExactly() {
        // A 3 ns gap over 2 tokens and a 1 ns gap: values 1.5, 1.5 and 1 ns. By hand: mean 4/3 ns;
        // Σx² / n = 5.5 / 3, minus 16/9, is 1/18 ns²: std √(1/18) · 10^-6 ms.
        DistributionAccumulator histogram = new DistributionAccumulator(0, 0.001);
        DistributionAccumulator exact = new DistributionAccumulator();
        for (DistributionAccumulator accumulator : List.of(histogram, exact)) {
            accumulator.addNanosAsMillis(3, 2);
            accumulator.addNanosAsMillis(1);
        }
        assertThat(histogram.count()).isEqualTo(3);
        assertThat(histogram.summary().mean()).isEqualTo(1.3333333333333334e-6);
        assertThat(histogram.summary().std()).isEqualTo(2.3570226039551583e-7);
        assertThat(histogram.summary().min()).isEqualTo(1e-6);
        assertThat(histogram.summary().max()).isEqualTo(1.5e-6);
        // While exact, the values are the ones add(double, long) keeps: 3 ns / 10^6 / 2, twice, and 1 ns.
        assertThat(exact.summary()).isEqualTo(Statistics.summarize(new double[] {3 / 1e6 / 2, 3 / 1e6 / 2, 1 / 1e6}));
    }

    @Test
    void exactSumsCarryPast64BitsAndKeepTheirSign() {
        // 3·10^18 and 3·10^18 + 2 ns: Σ = 6·10^18 + 2 > 2^63, Σx² ≈ 1.8·10^37. Mean 3·10^18 + 1 ns
        // (the double nearest 3,000,000,000,000.000001 ms is 3·10^12), std 1 ns.
        DistributionAccumulator large = new DistributionAccumulator(0, 0.001);
        large.addNanosAsMillis(3_000_000_000_000_000_000L);
        large.addNanosAsMillis(3_000_000_000_000_000_002L);
        assertThat(large.summary().mean()).isEqualTo(3e12);
        assertThat(large.summary().std()).isEqualTo(1e-6);
        // −3 and 1 ns: mean −1 ns, variance (9 + 1) / 2 − 1 = 4 ns², std 2 ns.
        DistributionAccumulator signed = new DistributionAccumulator(0, 0.001);
        signed.addNanosAsMillis(-3);
        signed.addNanosAsMillis(1);
        assertThat(signed.summary().mean()).isEqualTo(-1e-6);
        assertThat(signed.summary().std()).isEqualTo(2e-6);
    }

    @Test
    void exactMomentsDoNotDependOnOrderOrOnHowPartsAreMerged() {
        SplittableRandom random = new SplittableRandom(3);
        long[] gaps = new long[30_000];
        int[] parts = new int[gaps.length];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = (long) (20e6 * Math.exp(0.8 * gaussian(random)));
            parts[i] = random.nextInt(10) == 0 ? 1 + random.nextInt(4) : 1;
        }
        DistributionAccumulator forward = new DistributionAccumulator(1_000, 0.001);
        DistributionAccumulator backward = new DistributionAccumulator(1_000, 0.001);
        DistributionAccumulator[] thirds = {
            new DistributionAccumulator(1_000, 0.001),
            new DistributionAccumulator(1_000, 0.001),
            new DistributionAccumulator(1_000, 0.001)
        };
        for (int i = 0; i < gaps.length; i++) {
            forward.addNanosAsMillis(gaps[i], parts[i]);
            backward.addNanosAsMillis(gaps[gaps.length - 1 - i], parts[gaps.length - 1 - i]);
            thirds[i % 3].addNanosAsMillis(gaps[i], parts[i]);
        }
        DistributionAccumulator merged = new DistributionAccumulator(1_000, 0.001);
        for (DistributionAccumulator third : thirds) {
            merged.merge(third);
        }
        assertThat(backward.summary()).isEqualTo(forward.summary());
        assertThat(merged.summary()).isEqualTo(forward.summary());
        // And they agree with the two-pass moments of the same values as doubles.
        double[] values = new double[(int) forward.count()];
        int v = 0;
        for (int i = 0; i < gaps.length; i++) {
            for (int k = 0; k < parts[i]; k++) {
                values[v++] = gaps[i] / 1e6 / parts[i];
            }
        }
        Summary twoPass = Statistics.summarize(values);
        assertThat(forward.summary().mean()).isCloseTo(twoPass.mean(), within(twoPass.mean() * 1e-14));
        assertThat(forward.summary().std()).isCloseTo(twoPass.std(), within(twoPass.std() * 1e-12));
    }

    @Test
    void wholeNanosecondsAndDoublesTogether() {
        // 1 ms and 3 ms as nanoseconds, 5 ms as a double: mean 3, std √(8/3).
        DistributionAccumulator mixed = new DistributionAccumulator(0, 0.001);
        mixed.addNanosAsMillis(1_000_000);
        mixed.addNanosAsMillis(3_000_000);
        mixed.add(5.0);
        assertThat(mixed.summary().mean()).isCloseTo(3.0, within(1e-15));
        assertThat(mixed.summary().std()).isCloseTo(Math.sqrt(8.0 / 3), within(1e-15));
    }

    @Test
    void anEventOfManyTokensKeepsExactMomentsToo() {
        // 200 ns over 100 tokens (100 values of 2 ns) and a 4 ns gap. By hand: n = 101, Σ = 204,
        // Σx² = 416; mean 204/101 ns; variance (416 · 101 − 204²) / 101² = 400/101² ns², std 20/101 ns.
        DistributionAccumulator accumulator = new DistributionAccumulator(0, 0.001);
        accumulator.addNanosAsMillis(200, 100);
        accumulator.addNanosAsMillis(4);
        assertThat(accumulator.count()).isEqualTo(101);
        assertThat(accumulator.summary().mean()).isEqualTo(2.01980198019802e-6);
        assertThat(accumulator.summary().std()).isEqualTo(1.9801980198019803e-7);
    }

    @Test
    void partsFilledApartMergeIntoTheSameFiguresAsOneAccumulator() {
        SplittableRandom random = new SplittableRandom(5);
        for (int n : new int[] {900, 5_000}) {
            // 900 values stay within the capacity of 1,000 (exact); 5,000 pass it (the histogram).
            DistributionAccumulator whole = new DistributionAccumulator(1_000, 0.001);
            DistributionAccumulator merged = new DistributionAccumulator(1_000, 0.001);
            DistributionAccumulator part = merged.newPart();
            for (int i = 0; i < n; i++) {
                long nanos = 1 + random.nextLong(50_000_000);
                whole.addNanosAsMillis(nanos);
                part.addNanosAsMillis(nanos);
                if (i % 700 == 699) {
                    merged.merge(part);
                    part = merged.newPart();
                }
            }
            merged.merge(part);
            assertThat(merged.exact()).isEqualTo(n <= 1_000);
            assertThat(merged.summary()).isEqualTo(whole.summary());
        }
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
