package dev.llmload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.compare.Repeats;
import dev.llmload.metrics.PercentileSlo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A repeated point's pass counts only when the interval of each limit across its runs lies under it. */
class PointVerdictTest {

    private static final PercentileSlo SLO = PercentileSlo.parse("p99_ttft:400");

    private static PointVerdict judge(Double... p99TtftMs) {
        return PointVerdict.judge(
                null, SLO, List.of(Repeats.across("p99_ttft", List.of(p99TtftMs))), p99TtftMs.length, List.of(), false);
    }

    @Test
    void aMeanUnderTheSloWhoseIntervalCrossesItIsNotAConfirmedPass() {
        // 350, 380, 390: mean 373.33, sample std 20.817, t(0.975; 2) = 4.3026527, so the interval of the
        // mean reaches 373.33 + 4.3026527 × 20.817 / √3 = 425.0448 (python3 by hand), above 400.
        PointVerdict verdict = judge(350.0, 380.0, 390.0);
        assertThat(verdict.passed()).as("the mean meets the SLO").isTrue();
        assertThat(verdict.confirmed()).isFalse();
        assertThat(verdict.confirmedPass()).isFalse();
        assertThat(verdict.searchLimiting()).isEqualTo("p99_ttft");
        assertThat(verdict.unconfirmed())
                .singleElement()
                .asString()
                .contains("373.333")
                .contains("425.045");
    }

    @Test
    void runsThatAgreeConfirmThePass() {
        // 379, 380, 381: the interval reaches 380 + 4.3026527 / √3 = 382.48.
        PointVerdict verdict = judge(379.0, 380.0, 381.0);
        assertThat(verdict.confirmed()).isTrue();
        assertThat(verdict.confirmedPass()).isTrue();
        assertThat(verdict.unconfirmed()).isEmpty();
        assertThat(verdict.searchLimiting()).isNull();
    }

    @Test
    void aSingleRunHasNoIntervalAndIsJudgedOnItsValue() {
        PointVerdict pass = judge(399.0);
        assertThat(pass.confirmed()).isNull();
        assertThat(pass.confirmedPass()).isTrue();
        PointVerdict fail = judge(401.0);
        assertThat(fail.passed()).isFalse();
        assertThat(fail.limiting()).isEqualTo("p99_ttft");
        assertThat(fail.violations()).containsExactly("p99_ttft 401 > 400");
    }

    @Test
    void aMeanOverTheSloFailsAndASaturatedPointFailsWhateverItsIntervals() {
        PointVerdict over = judge(390.0, 410.0, 420.0);
        assertThat(over.passed()).isFalse();
        assertThat(over.confirmed()).isFalse();
        assertThat(over.unconfirmed()).isEmpty();
        PointVerdict saturated = PointVerdict.judge(
                "saturation: ...", SLO, List.of(Repeats.across("p99_ttft", List.of(100.0, 100.0))), 2, List.of(), true);
        assertThat(saturated.limiting()).isEqualTo(PointVerdict.SATURATION);
        assertThat(saturated.confirmedPass()).isFalse();
        assertThat(saturated.tooShort()).isFalse();
    }

    /**
     * A capacity search over repeated points whose p99 TTFT is 30·load ms with runs at −20, 0 and +20
     * of it: the mean meets 400 up to a load of 13.3, but the interval (mean + 49.69) only up to 11.68.
     * Counting confirmed passes, the search settles on 11; counting means, 12 would have passed.
     */
    @Test
    void aCapacitySearchCountsOnlyConfirmedPasses() {
        CapacitySearch search = new CapacitySearch(1, CapacitySearch.Precision.parse("10%"), 12, false);
        List<String> tried = new ArrayList<>();
        CapacitySearch.Step step;
        while ((step = search.next()) instanceof CapacitySearch.Step.Probe probe) {
            double mean = 30 * probe.value();
            PointVerdict verdict = judge(mean - 20, mean, mean + 20);
            tried.add(PercentileSlo.format(probe.value())
                    + (probe.recheck() ? "r" : "")
                    + (verdict.passed() != verdict.confirmedPass() ? " (mean passed)" : ""));
            search.record(verdict.confirmedPass(), verdict.searchLimiting());
        }
        CapacitySearch.Result result = ((CapacitySearch.Step.Done) step).result();
        assertThat(tried)
                .containsExactly("1", "2", "4", "8", "16", "12 (mean passed)", "10", "11", "12r (mean passed)", "11r");
        assertThat(result.capacity()).isEqualTo(11.0);
        assertThat(result.confirmed()).isTrue();
        assertThat(result.lowestFailure()).isEqualTo(12.0);
        assertThat(result.limitingMetric()).isEqualTo("p99_ttft");
    }
}
