package dev.llmload.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.stats.Statistics;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PercentileSpectrumTest {

    @Test
    void samplesGiveAGridUpToTheLastResolvablePercentile() {
        double[] samples = IntStream.range(0, 1000).mapToDouble(i -> 999 - i).toArray();

        PercentileSpectrum spectrum = PercentileSpectrum.of(samples);

        assertThat(spectrum.exact()).isTrue();
        assertThat(spectrum.percentiles()[0]).isZero();
        assertThat(spectrum.values()[0]).isZero();
        // Three decades (p0 to p99.9) at 24 points each, then 1 − 1/n itself.
        assertThat(spectrum.percentiles()).hasSize(3 * PercentileSpectrum.POINTS_PER_DECADE + 1);
        assertThat(spectrum.percentiles()[spectrum.percentiles().length - 1]).isCloseTo(99.9, within(1e-9));
        assertThat(spectrum.percentiles()).isSorted();
        assertThat(spectrum.values()).isSorted();
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        assertThat(spectrum.values()[PercentileSpectrum.POINTS_PER_DECADE])
                .isEqualTo(Statistics.percentile(sorted, 90));
        assertThat(samples[0]).as("the caller's array is left alone").isEqualTo(999);
    }

    @Test
    void oneSampleIsOnePoint() {
        PercentileSpectrum spectrum = PercentileSpectrum.of(new double[] {42});

        assertThat(spectrum.percentiles()).containsExactly(0);
        assertThat(spectrum.values()).containsExactly(42);
    }

    @Test
    void noSamplesIsEmpty() {
        assertThat(PercentileSpectrum.of(new double[0])).isSameAs(PercentileSpectrum.EMPTY);
        assertThat(PercentileSpectrum.of(Statistics.summarize(new double[0]))).isSameAs(PercentileSpectrum.EMPTY);
    }
}
