package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.live.LiveSnapshot;
import dev.llmload.record.FailureClass;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live view's lines for snapshots made by hand. */
class LiveViewLinesTest {

    private static final LiveSnapshot.Histogram NONE =
            new LiveSnapshot.Histogram(new double[] {1}, new long[] {0, 0}, 0);

    @Test
    void anOpenLoopWithFailuresWarmUpAndAServerScrape() {
        Map<FailureClass, Long> failed = failed();
        failed.put(FailureClass.TIMEOUT, 2L);
        failed.put(FailureClass.HTTP_5XX, 1L);
        LiveSnapshot s = new LiveSnapshot(
                12_400_000_000L,
                false,
                590,
                failed,
                5,
                16,
                615,
                37_760,
                NONE,
                NONE,
                NONE,
                new LiveSnapshot.Window(
                        10,
                        50,
                        49.84,
                        49.5,
                        6310.44,
                        new LiveSnapshot.Quantiles(41.234, 96.04, 493),
                        new LiveSnapshot.Quantiles(6.2149, 15.87, 62_704),
                        new LiveSnapshot.Quantiles(871.6, 1234.5, 493),
                        2_100_000),
                410_000,
                new LiveSnapshot.Server(0.42, 3.0, 12.0, 400_000_000));

        assertThat(LiveView.lines(s, 1000L))
                .containsExactly(
                        "llmload live  12 s  (rates and percentiles over the last 10 s)",
                        // sent = 590 + 3 failed + 5 warm-up finished + 16 in flight
                        "requests  sent 614  in flight 16  finished 598/1000  failed 3 (http_5xx 1, timeout 2)"
                                + "  (warm-up 5)",
                        "rate      offered 50.0/s  sent 49.8/s  finished 49.5/s",
                        "TTFT      p50 41.2 ms  p99 96.0 ms  (493)",
                        "ITL       p50 6.21 ms  p99 15.9 ms  (62704)",
                        "E2E       p50 872 ms  p99 1235 ms  (493)",
                        "tokens    output 6310.4 tok/s",
                        "client    event-loop lag max 0.41 ms (last s)  2.10 ms (window)",
                        "server    KV cache 42.0%  waiting 3  running 12  (scraped 0.4 s ago)");
    }

    @Test
    void aClosedLoopBeforeAnythingFinishedAndWithoutTelemetry() {
        LiveSnapshot s = new LiveSnapshot(
                1_000_000_000L,
                true,
                0,
                failed(),
                0,
                4,
                -1,
                0,
                NONE,
                NONE,
                NONE,
                new LiveSnapshot.Window(10, Double.NaN, 4, 0, 0, null, null, null, 0),
                0,
                LiveSnapshot.Server.NONE);
        List<String> lines = LiveView.lines(s, null);
        assertThat(lines.getFirst()).isEqualTo("llmload live  1 s, done  (rates and percentiles over the last 10 s)");
        assertThat(lines.get(1)).isEqualTo("requests  sent 4  in flight 4  finished 0  failed 0");
        assertThat(lines.get(2)).isEqualTo("rate      offered - (closed loop)  sent 4.0/s  finished 0.0/s");
        assertThat(lines.get(3)).isEqualTo("TTFT      - (none finished in the window)");
        assertThat(lines.get(8)).isEqualTo("server    - (no scrape of the server's metrics yet; see --server-metrics)");
    }

    private static Map<FailureClass, Long> failed() {
        Map<FailureClass, Long> failed = new EnumMap<>(FailureClass.class);
        for (FailureClass c : FailureClass.values()) {
            failed.put(c, 0L);
        }
        return failed;
    }
}
