package dev.llmload.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FailIfTest {

    @Test
    void parsesRisesFallsRelativeAndAbsolute() {
        FailIf failIf = FailIf.parse("p99_ttft:+10%, output_token_throughput:-5%,mean_itl:+2.5");
        assertThat(failIf.thresholds())
                .containsExactly(
                        new FailIf.Threshold("p99_ttft", true, 0.10, true),
                        new FailIf.Threshold("output_token_throughput", false, 0.05, true),
                        new FailIf.Threshold("mean_itl", true, 2.5, false));
        assertThat(failIf.thresholds().get(1).toString()).isEqualTo("output_token_throughput:-5%");
    }

    @Test
    void aThresholdIsCrossedOnlyInItsDirectionAndBeyondItsSize() {
        FailIf.Threshold rise = FailIf.parse("p99_ttft:+10%").thresholds().getFirst();
        assertThat(rise.crossedBy(15.0, 0.15)).isTrue();
        assertThat(rise.crossedBy(5.0, 0.05)).isFalse();
        assertThat(rise.crossedBy(-50.0, -0.5)).isFalse();
        FailIf.Threshold fall =
                FailIf.parse("request_throughput:-0.5").thresholds().getFirst();
        assertThat(fall.crossedBy(-0.6, -0.1)).isTrue();
        assertThat(fall.crossedBy(-0.4, -0.5)).isFalse();
        assertThat(fall.crossedBy(null, null)).isFalse();
    }

    @Test
    void badThresholdsAreRefusedWithAReason() {
        for (String bad : new String[] {"p99_ttft:10%", "p99_ttft", "p98_ttft:+1%", "p99_ttft:+x%", "p99_ttft:+-5%"}) {
            assertThatThrownBy(() -> FailIf.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageNotContaining("\n");
        }
    }
}
