package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.config.Load;
import dev.llmload.record.FailureClass;
import dev.llmload.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stages of a changing load, each figure computed by hand from the records below. */
class LoadStageTest {

    private static final double EPS = 1e-9;

    /**
     * A linear ramp from 0 to 8 req/s over 4 s: four 1 s slices offering 0-2, 2-4, 4-6 and 6-8
     * req/s, then the hold at 8 up to the last arrival (4.5 s).
     */
    @Test
    void rampIsCutIntoFourSlicesAndAHoldToTheLastArrival() {
        Load ramp = Load.Open.of(null, Load.Arrival.RAMP, null, null, "0:8:4s");
        List<RequestRecord> records = List.of(
                Records.ok(0, 500, 500, 520, 600), // stage 0: TTFT 20, E2E 100, ends at 0.6 s
                Records.ok(1, 1000, 1000, 1040, 1200), // on the boundary: stage 1; TTFT 40, ends at 1.2 s
                Records.ok(2, 1500, 1500, 1530, 2100), // stage 1: TTFT 30, ends at 2.1 s
                Records.failed(3, 2500, FailureClass.HTTP_5XX, 503, "busy"), // stage 2, ends at 2.505 s
                Records.ok(4, 4500, 4500, 4510, 4600)); // the hold, the last arrival; ends after it

        List<LoadStage> stages = LoadStage.of(records, ramp);

        assertThat(stages).hasSize(5);
        assertThat(stages).allMatch(s -> s.offered() == LoadStage.Offered.REQUEST_RATE);
        double[][] expected = {
            // start, end, offered from, to, arrivals, succeeded, ended per second
            {0, 1, 0, 2, 1, 1, 1},
            {1, 2, 2, 4, 2, 2, 1},
            {2, 3, 4, 6, 1, 0, 2},
            {3, 4, 6, 8, 0, 0, 0},
            {4, 4.5, 8, 8, 1, 1, 0},
        };
        for (int i = 0; i < expected.length; i++) {
            LoadStage s = stages.get(i);
            double[] e = expected[i];
            assertThat(new double[] {
                        s.startS(),
                        s.endS(),
                        s.offeredFrom(),
                        s.offeredTo(),
                        s.arrivals(),
                        s.succeeded(),
                        s.achievedRequestRate()
                    })
                    .as("stage %d", i)
                    .containsExactly(e, within(EPS));
        }
        assertThat(stages.get(0).ttftP50Ms()).isCloseTo(20, within(EPS));
        assertThat(stages.get(0).e2eP50Ms()).isCloseTo(100, within(EPS));
        // TTFTs 30 and 40: p50 35, p99 30 + 0.99 × 10 (linear interpolation between ranks).
        assertThat(stages.get(1).ttftP50Ms()).isCloseTo(35, within(EPS));
        assertThat(stages.get(1).ttftP99Ms()).isCloseTo(39.9, within(EPS));
        assertThat(stages.get(2).ttftP50Ms()).isNull();
        assertThat(stages.get(3).e2eP50Ms()).isNull();
        assertThat(stages.get(4).ttftP50Ms()).isCloseTo(10, within(EPS));
    }

    @Test
    void rampWhoseArrivalsEndWithinItHasNoHold() {
        Load ramp = Load.Open.of(null, Load.Arrival.RAMP, null, null, "2:4:2s:exponential");
        List<LoadStage> stages =
                LoadStage.of(List.of(Records.ok(0, 100, 100, 110), Records.ok(1, 1900, 1900, 1910)), ramp);
        assertThat(stages).hasSize(4);
        // Exponential: 2 × 2^(t/2) at t = 0, 0.5, 1, 1.5, 2.
        assertThat(stages.get(1).offeredFrom()).isCloseTo(2 * Math.pow(2, 0.25), within(EPS));
        assertThat(stages.get(3).offeredTo()).isCloseTo(4, within(EPS));
    }

    @Test
    void stagesAndConcurrencyStepsAreTheirConfiguredSteps() {
        List<RequestRecord> records =
                List.of(Records.ok(0, 200, 200, 210), Records.ok(1, 1000, 1000, 1010), Records.ok(2, 1999, 1999, 2009));
        List<LoadStage> rates = LoadStage.of(records, Load.Open.of(null, Load.Arrival.STAGES, null, null, "2:1s,4:1s"));
        assertThat(rates).extracting(LoadStage::offeredFrom).containsExactly(2.0, 4.0);
        // The arrival at 1 s is on the boundary: the later stage's.
        assertThat(rates).extracting(LoadStage::arrivals).containsExactly(1L, 2L);

        List<LoadStage> steps = LoadStage.of(records, Load.Closed.of(2, "2:1s,4:1s"));
        assertThat(steps).extracting(LoadStage::offered).containsOnly(LoadStage.Offered.CONCURRENCY);
        assertThat(steps).extracting(LoadStage::offeredTo).containsExactly(2.0, 4.0);
        assertThat(steps).extracting(LoadStage::endS).containsExactly(1.0, 2.0);
    }

    @Test
    void steadyLoadsHaveNoStages() {
        List<RequestRecord> records = List.of(Records.ok(0, 200, 200, 210));
        assertThat(LoadStage.of(records, Load.closed(4))).isNull();
        assertThat(LoadStage.of(records, Load.open(5, null, null, null))).isNull();
        assertThat(LoadStage.of(List.of(), Load.Open.of(null, Load.Arrival.RAMP, null, null, "0:8:4s")))
                .isNull();
    }
}
