package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** MSER-5's cut on batch means of known shape. */
class SteadyStateTest {

    private static double[] rampThenPlateau(int ramp, int plateau, double noiseMs, long seed) {
        Random random = new Random(seed);
        double[] means = new double[ramp + plateau];
        for (int j = 0; j < means.length; j++) {
            double base = j < ramp ? 100 + 50.0 * (ramp - j) : 100;
            means[j] = base + noiseMs * random.nextGaussian();
        }
        return means;
    }

    @Test
    void cutsADecliningStartAtItsEnd() {
        for (long seed = 0; seed < 20; seed++) {
            double[] means = rampThenPlateau(12, 40, 5, seed);
            int cut = SteadyState.best(SteadyState.mser(means), means.length / 2);
            // Noise on the plateau may move the cut some batches later, never before the end of the
            // decline, and three quarters of the plateau stay.
            assertThat(cut).as("seed %d", seed).isBetween(11, 12 + 10);
        }
    }

    @Test
    void cutsNothingFromNoiseOnAPlateau() {
        for (long seed = 0; seed < 20; seed++) {
            double[] means = rampThenPlateau(0, 60, 5, seed);
            int cut = SteadyState.best(SteadyState.mser(means), means.length / 2);
            assertThat(cut).as("seed %d", seed).isLessThan(10);
        }
    }

    @Test
    void aLatencyThatKeepsGrowingHasNoWindow() {
        double[] means = new double[40];
        for (int j = 0; j < means.length; j++) {
            means[j] = 100 + 20.0 * j;
        }
        assertThat(SteadyState.best(SteadyState.mser(means), means.length / 2)).isEqualTo(means.length / 2);
    }

    @Test
    void differencesBelowTheResolutionAreNoTrend() {
        // A plateau at 38.6 ms whose later batches wobble by 0.4 ms: no reason to cut into it.
        double[] means = new double[40];
        for (int j = 0; j < means.length; j++) {
            means[j] = j < 5 ? 1000 - 150.0 * j : 38.6 + (j % 7 == 0 ? 0.4 : 0);
        }
        assertThat(SteadyState.best(SteadyState.mser(means), means.length / 2)).isEqualTo(5);
    }
}
