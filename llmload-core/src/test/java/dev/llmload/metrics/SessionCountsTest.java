package dev.llmload.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.analysis.Records;
import dev.llmload.record.FailureClass;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.SessionTurn;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sessions and turns counted by hand: three sessions of 3, 1 and 2 turns, one turn failed. */
class SessionCountsTest {

    @Test
    void countsSessionsTurnsAndCleanSessions() {
        List<RequestRecord> records = List.of(
                turn(Records.ok(0, 0, 0, 10), 0, 1),
                turn(Records.ok(1, 20, 20, 30), 0, 2),
                turn(Records.ok(2, 40, 40, 50), 0, 3),
                turn(Records.ok(3, 0, 0, 10), 1, 1),
                turn(Records.ok(4, 0, 0, 10), 2, 1),
                turn(Records.failed(5, 30, FailureClass.HTTP_5XX, 500, "boom"), 2, 2));

        SessionCounts counts = SessionCounts.of(records);

        assertThat(counts).isEqualTo(new SessionCounts(3, 6, 2.0, 3, 2));
    }

    @Test
    void requestsOutsideSessionsHaveNone() {
        assertThat(SessionCounts.of(List.of(Records.ok(0, 0, 0, 10)))).isNull();
    }

    private static RequestRecord turn(RequestRecord r, long session, int turn) {
        return new RequestRecord(
                r.index(),
                r.requestId(),
                r.warmup(),
                r.timings(),
                r.tokenEventCounts(),
                r.httpStatus(),
                r.outcome(),
                r.inputTokens(),
                r.inputTokensFromServer(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.finishReason(),
                r.streamed(),
                r.retryAfter(),
                new SessionTurn(session, turn),
                r.serverTimings());
    }
}
