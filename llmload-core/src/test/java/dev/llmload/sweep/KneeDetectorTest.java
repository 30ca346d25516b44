package dev.llmload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KneeDetectorTest {

    private static KneeDetector.Point p(double throughput, Double ttft, Double e2e, Double errors) {
        return new KneeDetector.Point(throughput, ttft, e2e, errors);
    }

    @Test
    void theKneeIsWhereThroughputStopsGrowingWhileLatencyClimbs() {
        // Throughput 10, 20, 40, 41 (within 10% of 40), 41.5; p99 TTFT doubles only at the last.
        var knee = KneeDetector.find(
                        List.of(
                                p(10, 50.0, 500.0, 0.0),
                                p(20, 60.0, 520.0, 0.0),
                                p(40, 80.0, 600.0, 0.0),
                                p(41, 120.0, 700.0, 0.0),
                                p(41.5, 170.0, 900.0, 0.0)),
                        2,
                        0.05)
                .orElseThrow();
        // The plateau starts at 40: the least load that reached what 41 and 41.5 only pay for in latency.
        assertThat(knee.index()).isEqualTo(2);
        assertThat(knee.riseIndex()).isEqualTo(4);
        assertThat(knee.throughput()).isEqualTo(40.0);
        assertThat(knee.reason())
                .isEqualTo("throughput 41.50 req/s is within 10% of the best before (41.00 req/s) "
                        + "while p99 TTFT 170.0 ms is more than 2× its 80.0 ms there at 40.00 req/s");
    }

    @Test
    void latencyThatClimbsWhileThroughputStillGrowsIsNoKnee() {
        // A closed loop from 16 to 64 in flight: every point slower than the first, throughput 2.4× (the
        // rule that compared p99 TTFT with the first point put the knee at 16).
        assertThat(KneeDetector.find(
                        List.of(p(100, 40.0, 800.0, 0.0), p(160, 90.0, 1000.0, 0.0), p(240, 200.0, 1500.0, 0.0)),
                        2,
                        0.05))
                .isEmpty();
    }

    @Test
    void aPlateauWithoutALatencyRiseIsNoKnee() {
        assertThat(KneeDetector.find(
                        List.of(p(10, 50.0, 500.0, 0.0), p(10.2, 52.0, 510.0, 0.0), p(10.1, 51.0, 505.0, 0.0)),
                        2,
                        0.05))
                .isEmpty();
    }

    @Test
    void e2eAndErrorRatesCountToo() {
        assertThat(KneeDetector.find(List.of(p(2, 50.0, 500.0, 0.0), p(2, 50.0, 1001.0, 0.0)), 2, 0.05)
                        .orElseThrow()
                        .reason())
                .contains("p99 E2E 1001.0 ms");
        var errors = KneeDetector.find(
                        List.of(p(1, 50.0, 500.0, 0.01), p(2, 50.0, 500.0, 0.02), p(3, 50.0, 500.0, 0.07)), 2, 0.05)
                .orElseThrow();
        assertThat(errors.index()).isEqualTo(1);
        assertThat(errors.reason()).startsWith("error rate 7.0%");
    }

    @Test
    void noKneeWithMissingValues() {
        assertThat(KneeDetector.find(List.of(p(1, null, null, null), p(1, 500.0, 5000.0, 0.0)), 2, 0.05))
                .isEmpty();
        assertThat(KneeDetector.find(List.of(), 2, 0.05)).isEmpty();
    }
}
