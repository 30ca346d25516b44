package dev.llmload.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class StatisticsTest {

    private static final double EXACT = 1e-9;

    @Test
    void summarizesFourValues() {
        // n = 4, ranks are p/100 · 3.
        // p50: rank 1.5   -> 2 + 0.5   · (3 − 2) = 2.5
        // p90: rank 2.7   -> 3 + 0.7   · (4 − 3) = 3.7
        // p95: rank 2.85  -> 3.85;  p99: rank 2.97 -> 3.97;  p99.9: rank 2.997 -> 3.997
        // mean 10 / 4 = 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5; std = √(5 / 4) = 1.1180339887...
        Summary summary = Statistics.summarize(new double[] {4, 1, 3, 2});
        assertThat(summary.count()).isEqualTo(4);
        assertThat(summary.mean()).isCloseTo(2.5, within(EXACT));
        assertThat(summary.std()).isCloseTo(1.118033988749895, within(EXACT));
        assertThat(summary.min()).isEqualTo(1.0);
        assertThat(summary.max()).isEqualTo(4.0);
        assertThat(summary.p50()).isCloseTo(2.5, within(EXACT));
        assertThat(summary.p90()).isCloseTo(3.7, within(EXACT));
        assertThat(summary.p95()).isCloseTo(3.85, within(EXACT));
        assertThat(summary.p99()).isCloseTo(3.97, within(EXACT));
        assertThat(summary.p99_9()).isCloseTo(3.997, within(EXACT));
    }

    @Test
    void summarizesFiveValues() {
        // n = 5, ranks are p/100 · 4; values 15, 20, 35, 40, 50.
        // p50: rank 2     -> 35 exactly
        // p90: rank 3.6   -> 40 + 0.6  · 10 = 46
        // p95: rank 3.8   -> 40 + 0.8  · 10 = 48
        // p99: rank 3.96  -> 40 + 0.96 · 10 = 49.6;  p99.9: rank 3.996 -> 49.96
        // mean 160 / 5 = 32; squared deviations 289 + 144 + 9 + 64 + 324 = 830; std = √166 = 12.884098726725126
        Summary summary = Statistics.summarize(new double[] {50, 15, 40, 20, 35});
        assertThat(summary.mean()).isCloseTo(32, within(EXACT));
        assertThat(summary.std()).isCloseTo(12.884098726725126, within(EXACT));
        assertThat(summary.p50()).isEqualTo(35.0);
        assertThat(summary.p90()).isCloseTo(46, within(EXACT));
        assertThat(summary.p95()).isCloseTo(48, within(EXACT));
        assertThat(summary.p99()).isCloseTo(49.6, within(EXACT));
        assertThat(summary.p99_9()).isCloseTo(49.96, within(EXACT));
    }

    @Test
    void percentileInterpolatesBetweenClosestRanks() {
        double[] sorted = {15, 20, 35, 40, 50};
        // p40: rank 0.4 · 4 = 1.6 -> 20 + 0.6 · (35 − 20) = 29
        assertThat(Statistics.percentile(sorted, 40)).isCloseTo(29, within(EXACT));
        // p10: rank 0.4 -> 15 + 0.4 · 5 = 17;  p0 and p100 are the extremes.
        assertThat(Statistics.percentile(sorted, 10)).isCloseTo(17, within(EXACT));
        assertThat(Statistics.percentile(sorted, 0)).isEqualTo(15.0);
        assertThat(Statistics.percentile(sorted, 100)).isEqualTo(50.0);
    }

    @Test
    void percentileAgreesWithNumpyToTheLastBit() {
        // numpy.percentile(x, 95) gives 661.3048999999997 (NumPy 2.4): at rank 5.7 it interpolates
        // back from the upper value; 453.498 + 296.867 · 0.7 would give 661.3048999999999.
        double[] sorted = {134.042, 203.455, 262.313, 303.195, 403.113, 453.498, 750.365};
        assertThat(Statistics.percentile(sorted, 95)).isEqualTo(661.3048999999997);
    }

    @Test
    void doesNotModifyTheCallersArray() {
        double[] values = {3, 1, 2};
        Statistics.summarize(values);
        assertThat(values).containsExactly(3, 1, 2);
    }

    @Test
    void singleValueIsEveryStatisticWithZeroSpread() {
        Summary summary = Statistics.summarize(new double[] {7.5});
        assertThat(summary).isEqualTo(new Summary(1, 7.5, 0.0, 7.5, 7.5, 7.5, 7.5, 7.5, 7.5, 7.5));
    }

    @Test
    void emptyInputIsAbsentNotZero() {
        Summary summary = Statistics.summarize(new double[0]);
        assertThat(summary).isEqualTo(Summary.EMPTY);
        assertThat(summary.isEmpty()).isTrue();
        assertThat(summary.count()).isZero();
        assertThat(summary.mean()).isNull();
        assertThat(summary.std()).isNull();
        assertThat(summary.min()).isNull();
        assertThat(summary.max()).isNull();
        for (Percentile percentile : Percentile.values()) {
            assertThat(summary.percentile(percentile)).as(percentile.key()).isNull();
        }
    }

    @Test
    void rejectsNaNAndInfinityNamingTheSample() {
        assertThatThrownBy(() -> Statistics.summarize(new double[] {1, Double.NaN}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sample 1 of 2 is NaN; statistics need finite values");
        assertThatThrownBy(() -> Statistics.summarize(new double[] {Double.POSITIVE_INFINITY}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Infinity");
    }

    @Test
    void percentileRejectsEmptySetAndOutOfRangeP() {
        assertThatThrownBy(() -> Statistics.percentile(new double[0], 50))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> Statistics.percentile(new double[] {1}, 100.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100.5");
        assertThatThrownBy(() -> Statistics.percentile(new double[] {1}, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void summaryPercentileAccessorMatchesFields() {
        Summary summary = Statistics.summarize(new double[] {15, 20, 35, 40, 50});
        assertThat(summary.percentile(Percentile.P50)).isEqualTo(summary.p50());
        assertThat(summary.percentile(Percentile.P90)).isEqualTo(summary.p90());
        assertThat(summary.percentile(Percentile.P95)).isEqualTo(summary.p95());
        assertThat(summary.percentile(Percentile.P99)).isEqualTo(summary.p99());
        assertThat(summary.percentile(Percentile.P99_9)).isEqualTo(summary.p99_9());
    }

    @Test
    void flagsTailPercentilesThatRestOnTooFewSamples() {
        Summary ninetyNine = Statistics.summarize(new double[99]);
        Summary hundred = Statistics.summarize(new double[100]);
        Summary thousand = Statistics.summarize(new double[1_000]);
        assertThat(ninetyNine.isLowConfidence(Percentile.P99)).isTrue();
        assertThat(ninetyNine.isLowConfidence(Percentile.P95)).isFalse();
        assertThat(hundred.isLowConfidence(Percentile.P99)).isFalse();
        assertThat(hundred.isLowConfidence(Percentile.P99_9)).isTrue();
        assertThat(Statistics.summarize(new double[999]).isLowConfidence(Percentile.P99_9))
                .isTrue();
        assertThat(thousand.isLowConfidence(Percentile.P99_9)).isFalse();
        assertThat(Summary.EMPTY.isLowConfidence(Percentile.P50)).isTrue();
    }

    @Test
    void summaryRejectsHalfEmptyStates() {
        assertThatThrownBy(() -> new Summary(0, 1.0, null, null, null, null, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Summary(2, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
