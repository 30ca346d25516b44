package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * The cut from {@link RequestTimes} batches the measured requests in order of intended send,
     * equal sends in record order, as sorting the records themselves does; and its window picks
     * exactly the requests from the cut on. Requests arrive in pairs (equal intended sends, as a
     * closed loop's first requests have), out of order, with warm-up among them.
     */
    @Test
    void theColumnsCutWhereSortingTheRecordsCuts() {
        Random random = new Random(7);
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            double intended = (i / 2) * 10.0;
            double latency = (i < 80 ? 2000 - 20.0 * i : 400) + 30 * random.nextDouble();
            RequestRecord r = Records.streamed(
                    i,
                    i % 41 == 0,
                    intended,
                    intended,
                    new double[] {intended + latency},
                    new int[] {1},
                    dev.llmload.record.Outcome.SUCCESS,
                    200,
                    10);
            records.add(r);
        }
        java.util.Collections.shuffle(records, random);

        List<RequestRecord> measured = records.stream()
                .filter(r -> !r.warmup())
                .sorted(java.util.Comparator.comparingLong(r -> r.timings().intendedSendNanos()))
                .toList();
        double[] means = new double[measured.size() / SteadyState.BATCH];
        for (int j = 0; j < means.length; j++) {
            double sum = 0;
            for (int i = j * SteadyState.BATCH; i < (j + 1) * SteadyState.BATCH; i++) {
                sum += measured.get(i).timings().endNanos()
                        - measured.get(i).timings().intendedSendNanos();
            }
            means[j] = sum / SteadyState.BATCH / 1e6;
        }
        int expectedCut = SteadyState.best(SteadyState.mser(means), means.length / 2);

        SteadyState.Cut cut = SteadyState.cut(RequestTimes.of(records));
        assertThat(cut.cutBatches()).isEqualTo(expectedCut).isPositive();
        assertThat(cut.reached()).isTrue();
        SteadyState.Window window = cut.window();
        java.util.Set<Long> picked = new java.util.HashSet<>();
        for (RequestRecord r : records) {
            if (window.contains(r)) {
                picked.add(r.index());
            }
        }
        assertThat(picked)
                .containsExactlyInAnyOrderElementsOf(
                        measured.subList(expectedCut * SteadyState.BATCH, measured.size()).stream()
                                .map(RequestRecord::index)
                                .toList());
    }
}
