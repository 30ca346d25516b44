package dev.llmload.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.metrics.PercentileSlo;
import dev.llmload.metrics.RunResults;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepValuesTest {

    @Test
    void rangesAndLists() {
        assertThat(SweepValues.parse("2:10:2")).containsExactly(2.0, 4.0, 6.0, 8.0, 10.0);
        assertThat(SweepValues.parse("0.1:0.3:0.1")).hasSize(3);
        assertThat(SweepValues.parse("2:9:3")).containsExactly(2.0, 5.0, 8.0);
        assertThat(SweepValues.parse("1, 2,4")).containsExactly(1.0, 2.0, 4.0);
        for (String bad : new String[] {"0,1", "a,b", "5:1:1", "1:2", "1:100000:0.01"}) {
            assertThatThrownBy(() -> SweepValues.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void autoRatesRunFromAboveTheBaselineToTheMaximumAsGuideLlm() {
        // linspace(2, 12, 6)[1:] = 4, 6, 8, 10, 12
        assertThat(SweepValues.autoRates(2, 12, 5)).containsExactly(4.0, 6.0, 8.0, 10.0, 12.0);
        assertThatThrownBy(() -> SweepValues.autoRates(0, 12, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void percentileSloParsesAndJudges() {
        PercentileSlo slo = PercentileSlo.parse("p99_ttft:1000,mean_tpot:50,error_rate:0.01");
        assertThat(slo.limits())
                .extracting(PercentileSlo.Limit::key)
                .containsExactly("p99_ttft", "mean_tpot", "error_rate");
        assertThat(slo.latencyLinesMs())
                .containsEntry("ttft", 1000.0)
                .containsEntry("tpot", 50.0)
                .hasSize(2);
        assertThat(slo.toString()).isEqualTo("p99_ttft:1000,mean_tpot:50,error_rate:0.01");
        // No request succeeded: the latency limits were not measured, so they fail; the error rate (100%) too.
        RunResults nothing = RunResults.compute(List.of());
        assertThat(slo.violations(nothing))
                .extracting(PercentileSlo.Violation::key)
                .containsExactly("p99_ttft", "mean_tpot", "error_rate");
        for (String bad :
                new String[] {"ttft:100", "p98_ttft:1", "p99_ttft:x", "error_rate:2", "p99_ttft:1,p99_ttft:2"}) {
            assertThatThrownBy(() -> PercentileSlo.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
