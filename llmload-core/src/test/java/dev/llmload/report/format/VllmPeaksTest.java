package dev.llmload.report.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.analysis.Records;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** vLLM's peak output tokens per second and peak concurrency, on a hand-made case. */
class VllmPeaksTest {

    /*
     * a: sent 0, tokens 100, 900 | 1100, 1200 ms (ends 1200)
     * b: sent 500, tokens 1300, 1400 | 1500, the last carrying 2 tokens (ends 1500)
     * c: sent 1200, the instant a ends, token 1250
     * One-second buckets from 0: 2 tokens, then 2 + 4 + 1 = 7. In flight: a and b, then b and c
     * (a's end at 1200 comes before c's send at 1200): never 3.
     */
    @Test
    void peakTokensPerSecondAndConcurrencyAreVllms() {
        List<RequestRecord> succeeded = List.of(
                Records.ok(0, 0, 0, 100, 900, 1100, 1200),
                Records.streamed(
                        1,
                        false,
                        500,
                        500,
                        new double[] {1300, 1400, 1500},
                        new int[] {1, 1, 2},
                        Outcome.SUCCESS,
                        200,
                        10),
                Records.ok(2, 1200, 1200, 1250));
        assertThat(VllmExport.peakOutputTokensPerSecond(succeeded)).isEqualTo(7.0);
        assertThat(VllmExport.peakConcurrency(succeeded)).isEqualTo(2);
    }
}
