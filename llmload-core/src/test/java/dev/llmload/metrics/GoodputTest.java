package dev.llmload.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.analysis.Records;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoodputTest {

    private static final double EXACT = 1e-9;

    @Test
    void parsesAnySubsetOfLimits() {
        assertThat(Slo.parse("ttft:500,tpot:50,e2e:3000")).isEqualTo(new Slo(500.0, 50.0, 3000.0));
        assertThat(Slo.parse(" TPOT:12.5 ")).isEqualTo(new Slo(null, 12.5, null));
        assertThat(Slo.parse("e2el:3000")).isEqualTo(new Slo(null, null, 3000.0));
    }

    @Test
    void rejectsBadSlosWithOneLineReasons() {
        for (String bad : List.of(
                "", "ttft", "foo:1", "ttft:abc", "ttft:-1", "ttft:0", "ttft:Infinity", "ttft:1,ttft:2", "ttft:1:2")) {
            assertThatThrownBy(() -> Slo.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("bad --slo '" + bad + "'")
                    .hasMessageNotContaining("\n");
        }
        assertThatThrownBy(() -> Slo.parse("foo:1")).hasMessageContaining("unknown metric 'foo'");
    }

    /*
     * SLO TTFT ≤ 500 ms and E2E ≤ 1000 ms:
     * a: TTFT 400, E2E 900, 2 tokens          -> met
     * b: TTFT 600                              -> miss
     * c: sent 100, TTFT 400, E2E 1000, 2 tokens -> met (limits are inclusive)
     * d: HTTP 500                              -> miss (failed)
     * e: not streamed, E2E 500                 -> miss (no TTFT to check)
     * w: warm-up                               -> not counted
     */
    private static List<RequestRecord> records() {
        return List.of(
                Records.ok(0, 0, 0, 400, 900),
                Records.ok(1, 0, 0, 600, 700),
                Records.ok(2, 0, 100, 500, 1100),
                Records.failed(3, 0, FailureClass.HTTP_5XX, 500, "internal error"),
                Records.unstreamed(4, 0, 500, 10),
                Records.streamed(5, true, 0, 0, new double[] {100}, new int[] {1}, Outcome.SUCCESS, 200, 100));
    }

    @Test
    void countsOnlySucceededRequestsMeetingEveryLimit() {
        Goodput goodput = Goodput.compute(records(), Slo.parse("ttft:500,e2e:1000"), 2.0);

        assertThat(goodput.met()).isEqualTo(2);
        assertThat(goodput.attempted()).isEqualTo(5);
        assertThat(goodput.metShare()).isCloseTo(0.4, within(EXACT));
        assertThat(goodput.requestGoodput()).isCloseTo(1.0, within(EXACT));
        assertThat(goodput.outputTokenGoodput()).isCloseTo(2.0, within(EXACT));
    }

    @Test
    void aLimitOnAMetricTheRequestLacksIsAMiss() {
        // e2e only: e now meets it (E2E 500); b meets it too (E2E 700).
        assertThat(Goodput.compute(records(), Slo.parse("e2e:1000"), 2.0).met()).isEqualTo(4);
        // A single-token response has no TPOT.
        List<RequestRecord> single = List.of(Records.ok(0, 0, 0, 100), Records.ok(1, 0, 0, 100, 120));
        assertThat(Goodput.compute(single, Slo.parse("tpot:50"), 1.0).met()).isEqualTo(1);
    }

    @Test
    void runResultsShareTheRunsDuration() {
        // Duration: first intended send 0 to last end 1100 ms.
        RunResults results = RunResults.compute(records(), Slo.parse("ttft:500,e2e:1000"));
        assertThat(results.goodput().requestGoodput()).isCloseTo(2 / 1.1, within(EXACT));
        assertThat(results.goodput().outputTokenGoodput()).isCloseTo(4 / 1.1, within(EXACT));
        assertThat(RunResults.compute(records()).goodput()).isNull();
    }
}
