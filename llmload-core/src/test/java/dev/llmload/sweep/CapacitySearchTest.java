package dev.llmload.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.metrics.PercentileSlo;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

class CapacitySearchTest {

    /** Runs the search against a verdict and returns the loads tried (re-runs marked with r). */
    private static List<String> drive(CapacitySearch search, DoublePredicate passes, CapacitySearch.Result[] result) {
        List<String> tried = new ArrayList<>();
        CapacitySearch.Step step;
        while ((step = search.next()) instanceof CapacitySearch.Step.Probe probe) {
            tried.add(PercentileSlo.format(probe.value()) + (probe.recheck() ? "r" : ""));
            boolean ok = passes.test(probe.value());
            search.record(ok, ok ? null : "p99_ttft");
        }
        result[0] = ((CapacitySearch.Step.Done) step).result();
        return tried;
    }

    @Test
    void doublesThenBisectsToThePrecisionThenRechecks() {
        // Capacity 10: 1,2,4,8 pass, 16 fails; bisect 12 (fail), 10 (pass), 11 (fail): 10..11 is within 10%;
        // both ends are re-run.
        CapacitySearch.Result[] result = new CapacitySearch.Result[1];
        List<String> tried =
                drive(new CapacitySearch(1, CapacitySearch.Precision.parse("10%"), 12, false), v -> v <= 10.5, result);
        assertThat(tried).containsExactly("1", "2", "4", "8", "16", "12", "10", "11", "11r", "10r");
        assertThat(result[0].capacity()).isEqualTo(10.0);
        assertThat(result[0].confirmed()).isTrue();
        assertThat(result[0].firstFailure()).isEqualTo(16.0);
        assertThat(result[0].limitingMetric()).isEqualTo("p99_ttft");
    }

    @Test
    void concurrencyStopsWhenTheBracketIsOneWide() {
        CapacitySearch.Result[] result = new CapacitySearch.Result[1];
        List<String> tried =
                drive(new CapacitySearch(1, CapacitySearch.Precision.parse("1%"), 12, true), v -> v <= 4, result);
        assertThat(tried).containsExactly("1", "2", "4", "8", "6", "5", "5r", "4r");
        assertThat(result[0].capacity()).isEqualTo(4.0);
    }

    @Test
    void halvesWhenTheStartFailsAndGivesUpAtOne() {
        CapacitySearch.Result[] result = new CapacitySearch.Result[1];
        List<String> tried =
                drive(new CapacitySearch(4, CapacitySearch.Precision.parse("1"), 12, true), v -> false, result);
        assertThat(tried).containsExactly("4", "2", "1");
        assertThat(result[0].capacity()).isNull();
        assertThat(result[0].firstFailure()).isEqualTo(4.0);
    }

    @Test
    void aFailedRecheckDropsThatPassAndSearchesBelow() {
        // 4 passes the first time only: the search falls back to 3, between 2 (pass) and 4 (now failing).
        int[] fours = {0};
        CapacitySearch.Result[] result = new CapacitySearch.Result[1];
        List<String> tried = drive(
                new CapacitySearch(1, CapacitySearch.Precision.parse("1%"), 12, true),
                v -> v < 4 || (v == 4 && fours[0]++ == 0),
                result);
        assertThat(tried).containsExactly("1", "2", "4", "8", "6", "5", "5r", "4r", "3", "3r");
        assertThat(result[0].capacity()).isEqualTo(3.0);
        assertThat(result[0].confirmed()).isTrue();
    }

    @Test
    void stopsAtMaxPointsWithTheBestSoFar() {
        CapacitySearch.Result[] result = new CapacitySearch.Result[1];
        List<String> tried =
                drive(new CapacitySearch(1, CapacitySearch.Precision.parse("0.1%"), 5, false), v -> v <= 5, result);
        assertThat(tried).containsExactly("1", "2", "4", "8", "6");
        assertThat(result[0].capacity()).isEqualTo(4.0);
        assertThat(result[0].confirmed()).isFalse();
    }

    @Test
    void aFailureThatPassesItsReRunWasLuckAndTheSearchGoesOnAbove() {
        // Capacity 10, but the first run of 4 fails (a cold start): its re-run passes, and the
        // search climbs past it to the real capacity.
        int[] fours = {0};
        CapacitySearch.Result[] result = new CapacitySearch.Result[1];
        List<String> tried = drive(
                new CapacitySearch(4, CapacitySearch.Precision.parse("10%"), 16, false),
                v -> v <= 10.5 && !(v == 4 && fours[0]++ == 0),
                result);
        assertThat(tried)
                .containsExactly("4", "2", "3", "3.5", "3.75", "4r", "8", "16", "12", "10", "11", "11r", "10r");
        assertThat(result[0].capacity()).isEqualTo(10.0);
        assertThat(result[0].confirmed()).isTrue();
    }

    @Test
    void aSaturatedFailureIsNotReRun() {
        CapacitySearch search = new CapacitySearch(1, CapacitySearch.Precision.parse("10%"), 12, false);
        List<String> tried = new ArrayList<>();
        CapacitySearch.Step step;
        while ((step = search.next()) instanceof CapacitySearch.Step.Probe probe) {
            tried.add(PercentileSlo.format(probe.value()) + (probe.recheck() ? "r" : ""));
            boolean ok = probe.value() <= 10.5;
            search.record(ok, ok ? null : "saturation", ok ? null : 10.6);
        }
        // 16 is saturated with 10.6 served: the bracket's top is 10.6, and no failure is re-run.
        assertThat(tried).containsExactly("1", "2", "4", "8", "16", "9.3", "9.95", "9.95r");
        assertThat(((CapacitySearch.Step.Done) step).result().lowestFailure()).isEqualTo(10.6);
    }

    @Test
    void theLimitingMetricIsWhatFailedNearestTheCapacity() {
        // 16 fails on TTFT first; 12 and 11, nearest the capacity of 10, fail only on TPOT.
        CapacitySearch search = new CapacitySearch(1, CapacitySearch.Precision.parse("10%"), 12, false);
        CapacitySearch.Step step;
        while ((step = search.next()) instanceof CapacitySearch.Step.Probe probe) {
            double v = probe.value();
            search.record(v <= 10.5, v <= 10.5 ? null : v >= 16 ? "p99_ttft" : "p99_tpot");
        }
        CapacitySearch.Result result = ((CapacitySearch.Step.Done) step).result();
        assertThat(result.capacity()).isEqualTo(10.0);
        assertThat(result.firstFailure()).isEqualTo(16.0);
        assertThat(result.lowestFailure()).isEqualTo(11.0);
        assertThat(result.limitingMetric()).isEqualTo("p99_tpot");
    }

    @Test
    void precisionParsesRelativeAndAbsolute() {
        assertThat(CapacitySearch.Precision.parse("5%")).isEqualTo(new CapacitySearch.Precision(0.05, true));
        assertThat(CapacitySearch.Precision.parse("0.5")).isEqualTo(new CapacitySearch.Precision(0.5, false));
        assertThatThrownBy(() -> CapacitySearch.Precision.parse("fast")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CapacitySearch.Precision.parse("0%")).isInstanceOf(IllegalArgumentException.class);
    }
}
