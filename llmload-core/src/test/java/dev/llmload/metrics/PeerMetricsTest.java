package dev.llmload.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.analysis.Records;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TokenEventsView;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The metrics AIPerf and GenAI-Perf export that llmload writes beside its own, against hand-computed
 * values: the time to second token (second token-bearing event − first) and the output token
 * throughput per user (1000 / TPOT).
 */
class PeerMetricsTest {

    private static final double EXACT = 1e-9;

    /*
     * a: sent 10, tokens at 110, 130, 150, 170 (1 each): TTFT 100, TTST 20, E2E 160, TPOT 60/3 = 20 -> 50 tok/s
     * b: sent 0, tokens at 200, 250 (1 each):            TTFT 200, TTST 50, E2E 250, TPOT 50     -> 20 tok/s
     * c: sent 0, one token at 300:                        no TTST, no TPOT, no per-user throughput
     * d: HTTP 500, no tokens:                             counts in no distribution
     * w: warm-up, tokens at 1, 2:                         counts in no distribution
     */
    private static List<RequestRecord> records() {
        return List.of(
                Records.ok(0, 0, 10, 110, 130, 150, 170),
                Records.ok(1, 0, 0, 200, 250),
                Records.ok(2, 0, 0, 300),
                Records.failed(3, 0, 0, 50, Outcome.Failure.of(FailureClass.HTTP_5XX, "boom"), 500),
                Records.streamed(4, true, 0, 0, new double[] {1, 2}, new int[] {1, 1}, Outcome.SUCCESS, 200, 100));
    }

    @Test
    void timeToSecondTokenIsTheFirstGapAfterTheFirstToken() {
        List<RequestRecord> records = records();
        assertThat(RequestMetrics.timeToSecondTokenNanos(TokenEventsView.of(records.get(0))))
                .isEqualTo(20_000_000L);
        assertThat(RequestMetrics.timeToSecondTokenNanos(TokenEventsView.of(records.get(2))))
                .isEqualTo(-1L);

        RunResults results = RunResults.compute(records);
        assertThat(results.ttstMs().count()).isEqualTo(2);
        assertThat(results.ttstMs().mean()).isCloseTo(35.0, within(EXACT));
        assertThat(results.ttstMs().min()).isCloseTo(20.0, within(EXACT));
        assertThat(results.ttstMs().max()).isCloseTo(50.0, within(EXACT));
    }

    @Test
    void outputThroughputPerUserIsOneOverTpotInSeconds() {
        List<RequestRecord> records = records();
        assertThat(RequestMetrics.of(records.get(0)).outputTokensPerSecondPerUser())
                .isCloseTo(50.0, within(EXACT));
        assertThat(RequestMetrics.of(records.get(2)).outputTokensPerSecondPerUser())
                .isNull();

        RunResults results = RunResults.compute(records);
        assertThat(results.outputTokenThroughputPerUser().count()).isEqualTo(2);
        assertThat(results.outputTokenThroughputPerUser().mean()).isCloseTo(35.0, within(EXACT));
        assertThat(results.outputTokenThroughputPerUser().p50()).isCloseTo(35.0, within(EXACT));
    }

    /** A record kept without its token gaps has the same per-user throughput; TTST comes from the full record. */
    @Test
    void aRecordWithoutItsGapsKeepsThePerUserThroughput() {
        RequestRecord full = records().get(0);
        assertThat(RequestMetrics.of(full.withoutTokenGaps()).outputTokensPerSecondPerUser())
                .isCloseTo(50.0, within(EXACT));
    }
}
