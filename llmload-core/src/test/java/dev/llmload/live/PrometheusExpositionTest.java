package dev.llmload.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.record.FailureClass;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exposition of a snapshot made by hand, and the schedule's count of sends due, by hand. */
class PrometheusExpositionTest {

    @Test
    void countersHistogramsAndTheSegmentLabelAreWrittenAsPrometheusReadsThem() {
        Map<FailureClass, Long> failed = new EnumMap<>(FailureClass.class);
        for (FailureClass c : FailureClass.values()) {
            failed.put(c, 0L);
        }
        failed.put(FailureClass.TIMEOUT, 2L);
        // Three TTFTs: 0.3 ms, 1 ms (on a bound: counted there) and 3 s, summing to 3.0013 s.
        LiveSnapshot.Histogram ttft = histogram(new double[] {0.0005, 0.001, 2.5}, new long[] {1, 2, 2, 3}, 3.0013);
        LiveSnapshot.Histogram none = histogram(new double[] {1}, new long[] {0, 0}, 0);
        LiveSnapshot snapshot = new LiveSnapshot(
                2_500_000_000L,
                false,
                7,
                failed,
                1,
                3,
                12,
                700,
                ttft,
                none,
                none,
                new LiveSnapshot.Window(10, 5, 5, 4, 280, null, null, null, 0),
                1_500_000,
                LiveSnapshot.Server.NONE);

        String text = PrometheusExposition.render(snapshot, 1);

        assertThat(text)
                .contains("# TYPE llmload_requests_total counter\n")
                .contains("llmload_requests_total{segment=\"1\",outcome=\"success\"} 7\n")
                .contains("llmload_requests_total{segment=\"1\",outcome=\"timeout\"} 2\n")
                .contains("llmload_requests_total{segment=\"1\",outcome=\"http_5xx\"} 0\n")
                .contains("llmload_warmup_requests_total{segment=\"1\"} 1\n")
                .contains("llmload_requests_in_flight{segment=\"1\"} 3\n")
                .contains("llmload_scheduled_requests_total{segment=\"1\"} 12\n")
                .contains("llmload_output_tokens_total{segment=\"1\"} 700\n")
                .contains("# TYPE llmload_time_to_first_token_seconds histogram\n")
                .contains("llmload_time_to_first_token_seconds_bucket{segment=\"1\",le=\"0.0005\"} 1\n")
                .contains("llmload_time_to_first_token_seconds_bucket{segment=\"1\",le=\"0.001\"} 2\n")
                .contains("llmload_time_to_first_token_seconds_bucket{segment=\"1\",le=\"2.5\"} 2\n")
                .contains("llmload_time_to_first_token_seconds_bucket{segment=\"1\",le=\"+Inf\"} 3\n")
                .contains("llmload_time_to_first_token_seconds_sum{segment=\"1\"} 3.00130000\n")
                .contains("llmload_time_to_first_token_seconds_count{segment=\"1\"} 3\n")
                .contains("llmload_event_loop_lag_max_seconds{segment=\"1\"} 0.00150000000\n")
                .contains("llmload_elapsed_seconds{segment=\"1\"} 2.50000000\n");
        for (String name : PrometheusExposition.METRIC_NAMES) {
            assertThat(text).contains("# HELP " + name + " ");
        }
        // One host: no segment label at all; a closed loop: no schedule.
        LiveSnapshot closed = new LiveSnapshot(
                0, true, 0, failed, 0, 0, -1, 0, none, none, none, snapshot.window(), 0, LiveSnapshot.Server.NONE);
        String plain = PrometheusExposition.render(closed, null);
        assertThat(plain)
                .contains("llmload_requests_total{outcome=\"success\"} 0\n")
                .contains("llmload_requests_in_flight 0\n")
                .doesNotContain("segment=")
                .doesNotContain("llmload_scheduled_requests_total");
    }

    @Test
    void sendsDueCountEveryOffsetAtOrBeforeTheInstant() {
        long[] schedule = {0, 10, 10, 10, 25};
        assertThat(LiveMetrics.scheduled(null, 100)).isEqualTo(-1);
        assertThat(LiveMetrics.scheduled(schedule, 0)).isEqualTo(1);
        assertThat(LiveMetrics.scheduled(schedule, 9)).isEqualTo(1);
        assertThat(LiveMetrics.scheduled(schedule, 10)).isEqualTo(4);
        assertThat(LiveMetrics.scheduled(schedule, 24)).isEqualTo(4);
        assertThat(LiveMetrics.scheduled(schedule, 25)).isEqualTo(5);
        assertThat(LiveMetrics.scheduled(schedule, 1_000)).isEqualTo(5);
    }

    private static LiveSnapshot.Histogram histogram(double[] bounds, long[] cumulative, double sum) {
        return new LiveSnapshot.Histogram(bounds, cumulative, sum);
    }
}
