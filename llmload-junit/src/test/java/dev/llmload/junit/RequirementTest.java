package dev.llmload.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.metrics.RunResults;
import dev.llmload.stats.Percentile;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The limits on hand-made results: strictly below, and no samples never passes. */
class RequirementTest {

    @Test
    void aLatencyLimitIsStrictAndReadsThePercentileItNames() {
        RunResults none = RunResults.compute(List.of());
        Requirement.LatencyBelow ttft =
                new Requirement.LatencyBelow(Latency.TTFT, Percentile.P99, Duration.ofMillis(5));
        assertThat(ttft.check(none)).hasValueSatisfying(v -> {
            assertThat(v.metric()).isEqualTo("p99 TTFT (results.ttft_ms.p99)");
            assertThat(v.measured()).startsWith("nothing (no request gave a sample; 0 of 0 succeeded)");
            assertThat(v.limit()).isEqualTo("below 5 ms");
        });
        Requirement.ErrorRateBelow errors = new Requirement.ErrorRateBelow(0.01);
        assertThat(errors.check(none))
                .hasValueSatisfying(v -> assertThat(v.measured()).isEqualTo("nothing (no request was measured)"));
    }

    @Test
    void numbersKeepThreeDecimalsAtMostAndNoTrailingZeros() {
        assertThat(Requirement.number(5)).isEqualTo("5");
        assertThat(Requirement.number(50.8124)).isEqualTo("50.812");
        assertThat(Requirement.number(0.5)).isEqualTo("0.5");
        assertThat(Requirement.number(100)).isEqualTo("100");
        assertThat(Requirement.percent(0.01)).isEqualTo("1%");
    }
}
