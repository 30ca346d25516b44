package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.format.TimeSeriesCsv;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeSeriesTest {

    private static final double EXACT = 1e-9;

    /*
     * A: sent 0, tokens at 500, 900, 1200, 1300 ms          -> TTFT 500 (s0); gaps 400 (s0), 300, 100 (s1)
     * B: intended 200, sent 600, events at 1500 (1 token) and 1600 (3 tokens) -> TTFT 900 (s1); gap 100 (s1)
     * C: sent 1800, HTTP 500 at 2500 (s2)
     * W: a warm-up request at 3500 ms, which must not add a fourth second
     * start = 0 (first intended send); last send or end = 2500 -> 3 seconds.
     */
    private static List<RequestRecord> records() {
        return List.of(
                Records.ok(0, 0, 0, 500, 900, 1200, 1300),
                Records.streamed(
                        1, false, 200, 600, new double[] {1500, 1600}, new int[] {1, 3}, Outcome.SUCCESS, 200, 100),
                Records.failed(2, 1800, 1800, 2500, Outcome.Failure.of(FailureClass.HTTP_5XX, "boom"), 500),
                Records.streamed(3, true, 3400, 3400, new double[] {3500}, new int[] {1}, Outcome.SUCCESS, 200, 100));
    }

    @Test
    void bucketsEachQuantityIntoItsSecond() {
        TimeSeries series = TimeSeries.of(records());

        assertThat(series.startNanos()).isZero();
        assertThat(series.seconds()).hasSize(3);
        TimeSeries.Second s0 = series.seconds().get(0);
        TimeSeries.Second s1 = series.seconds().get(1);
        TimeSeries.Second s2 = series.seconds().get(2);

        assertThat(List.of(s0.started(), s1.started(), s2.started())).containsExactly(2L, 1L, 0L);
        assertThat(List.of(s0.finished(), s1.finished(), s2.finished())).containsExactly(0L, 2L, 1L);
        // A: 1.0 + 0.3; B: 0.4 + 0.6; C: 0.2 + 0.5
        assertThat(s0.inFlightMean()).isCloseTo(1.4, within(EXACT));
        assertThat(s1.inFlightMean()).isCloseTo(1.1, within(EXACT));
        assertThat(s2.inFlightMean()).isCloseTo(0.5, within(EXACT));
        // s1: A's two events + B's 1 + 3 tokens
        assertThat(List.of(s0.outputTokensPerS(), s1.outputTokensPerS(), s2.outputTokensPerS()))
                .containsExactly(2.0, 6.0, 0.0);

        assertThat(s0.ttftP50Ms()).isCloseTo(500, within(EXACT));
        assertThat(s1.ttftP99Ms()).isCloseTo(900, within(EXACT));
        assertThat(s2.ttftP50Ms()).isNull();
        assertThat(s0.itlP99Ms()).isCloseTo(400, within(EXACT));
        // s1 gaps sorted 100, 100, 300: p50 = 100; p99 rank 1.98 -> 100 + 0.98 · 200 = 296
        assertThat(s1.itlP50Ms()).isCloseTo(100, within(EXACT));
        assertThat(s1.itlP99Ms()).isCloseTo(296, within(EXACT));
        assertThat(s2.itlP50Ms()).isNull();

        assertThat(s1.errors().get(FailureClass.HTTP_5XX)).isZero();
        assertThat(s2.errors().get(FailureClass.HTTP_5XX)).isEqualTo(1);
        assertThat(s2.errors().get(FailureClass.TIMEOUT)).isZero();
    }

    @Test
    void meanInFlightIsTheLatencySumOverTheWindowAndPeakIsTheBusiestSecond() {
        TimeSeries series = TimeSeries.of(records());
        // Latencies A 1.3 s, B 1.0 s (sent 600, ended 1600), C 0.7 s = 3.0 s over a 2.5 s window;
        // dividing by the 3 whole rows instead would give 1.0.
        assertThat(series.inFlightMean(2.5)).isCloseTo(1.2, within(EXACT));
        assertThat(series.peakOutputTokensPerS()).isEqualTo(6.0);
        assertThat(series.inFlightMean(null)).isNull();
        assertThat(series.inFlightMean(0.0)).isNull();
    }

    @Test
    void noMeasuredRequestsGiveNoRows() {
        assertThat(TimeSeries.of(List.of()).seconds()).isEmpty();
        assertThat(TimeSeries.of(List.of()).inFlightMean(1.0)).isNull();
        assertThat(TimeSeries.of(List.of()).peakOutputTokensPerS()).isNull();
    }

    @Test
    void csvHasEmptyCellsForAbsentValuesAndAlignsExtraColumns() {
        Map<String, Double[]> extra = new LinkedHashMap<>();
        extra.put("gpu_utilization", new Double[] {10.0, null});
        String[] lines = TimeSeriesCsv.format(TimeSeries.of(records()), extra).split("\n");

        assertThat(lines).hasSize(4);
        assertThat(lines[0])
                .isEqualTo(
                        "second,started,finished,in_flight_mean,output_tokens_per_s,"
                                + "ttft_p50_ms,ttft_p99_ms,itl_p50_ms,itl_p99_ms,errors_redirect,errors_http_4xx,errors_rate_limited,errors_http_5xx,"
                                + "errors_connect,errors_timeout,errors_stream_error,errors_protocol,errors_cancelled,gpu_utilization");
        assertThat(lines[1])
                .startsWith("0,2,0,1.4,2.0,500.0,500.0,400.0,400.0,")
                .endsWith(",10.0");
        assertThat(lines[3]).isEqualTo("2,0,1,0.5,0.0,,,,,0,0,0,1,0,0,0,0,0,");
    }
}
