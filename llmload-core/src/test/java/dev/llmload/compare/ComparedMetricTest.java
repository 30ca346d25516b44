package dev.llmload.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TokenSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-request values behind the compared time to second token and output throughput per user, by hand. */
class ComparedMetricTest {

    private static final long MS = 1_000_000L;

    private static RequestRecord record(long index, Outcome outcome, long... eventMs) {
        long sent = index * 1_000 * MS;
        long[] events = new long[eventMs.length];
        int[] counts = new int[eventMs.length];
        for (int i = 0; i < events.length; i++) {
            events[i] = sent + eventMs[i] * MS;
            counts[i] = 1;
        }
        RequestTimings timings =
                new RequestTimings(sent, sent, sent + MS, events[0], events[0], events[events.length - 1], events);
        return new RequestRecord(
                index,
                "r" + index,
                false,
                timings,
                counts,
                200,
                outcome,
                8,
                true,
                eventMs.length,
                TokenSource.SERVER,
                "length",
                true,
                null,
                null,
                null);
    }

    @Test
    void ttstAndOutputThroughputPerUserComeFromEachSucceededRequest() {
        List<RequestRecord> records = List.of(
                // Tokens at 10, 13, 15 ms: TTST 3 ms; TPOT (15 − 10) / 2 = 2.5 ms, so 400 tok/s.
                record(0, Outcome.SUCCESS, 10, 13, 15),
                // One token: neither metric.
                record(1, Outcome.SUCCESS, 20),
                // Failed: in no distribution.
                record(2, Outcome.Failure.of(FailureClass.HTTP_5XX, "boom"), 10, 11, 12));
        assertThat(ComparedMetric.units("ttst", records)).isDeepEqualTo(new double[][] {{3.0}});
        assertThat(ComparedMetric.units("output_token_throughput_per_user", records))
                .isDeepEqualTo(new double[][] {{400.0}});
        assertThat(ComparedMetric.byKey("p99_ttst").title()).isEqualTo("P99 TTST (ms)");
        assertThat(ComparedMetric.byKey("mean_output_token_throughput_per_user").title())
                .isEqualTo("Mean output per user (tok/s)");
    }
}
