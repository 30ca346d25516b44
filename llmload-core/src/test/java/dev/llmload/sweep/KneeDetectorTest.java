package dev.llmload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KneeDetectorTest {

    private static KneeDetector.Point p(double throughput, Double ttft, Double e2e, Double errors) {
        return new KneeDetector.Point(throughput, ttft, e2e, errors);
    }

    @Test
    void theKneeIsThePointBeforeTheFirstP99AboveTwiceTheLowestBefore() {
        // TTFT 100, 60 (the lowest so far), 110 (< 120), 130 (> 2 × 60): the rise is at index 3.
        var knee = KneeDetector.find(List.of(p(1, 100.0, 1000.0, 0.0), p(2, 60.0, 1000.0, 0.0),
                p(3, 110.0, 1100.0, 0.0), p(3.2, 130.0, 1200.0, 0.0)), 2, 0.05).orElseThrow();
        assertThat(knee.index()).isEqualTo(2);
        assertThat(knee.riseIndex()).isEqualTo(3);
        assertThat(knee.throughput()).isEqualTo(3.0);
        assertThat(knee.reason()).startsWith("p99 TTFT 130.0 ms");
    }

    @Test
    void e2eAndErrorRatesRiseToo() {
        assertThat(KneeDetector.find(List.of(p(1, 50.0, 500.0, 0.0), p(2, 50.0, 1001.0, 0.0)), 2, 0.05)
                .orElseThrow().reason()).startsWith("p99 E2E");
        var errors = KneeDetector.find(List.of(p(1, 50.0, 500.0, 0.01), p(2, 50.0, 500.0, 0.02),
                p(3, 50.0, 500.0, 0.07)), 2, 0.05).orElseThrow();
        assertThat(errors.index()).isEqualTo(1);
        assertThat(errors.reason()).startsWith("error rate 7.0%");
    }

    @Test
    void noKneeWithoutASteepRiseOrWithMissingValues() {
        assertThat(KneeDetector.find(List.of(p(1, 50.0, 500.0, 0.0), p(2, 99.0, 999.0, 0.04)), 2, 0.05)).isEmpty();
        assertThat(KneeDetector.find(List.of(p(1, null, null, null), p(2, 500.0, 5000.0, 0.0)), 2, 0.05)).isEmpty();
        assertThat(KneeDetector.find(List.of(), 2, 0.05)).isEmpty();
    }
}
