package dev.llmload.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.analysis.Records;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sessions and turns counted by hand: three sessions of 3, 1 and 2 turns, one turn failed. */
class SessionCountsTest {

    @Test
    void countsSessionsTurnsAndCleanSessions() {
        List<RequestRecord> records = List.of(
                Records.inSession(Records.ok(0, 0, 0, 10), 0, 1),
                Records.inSession(Records.ok(1, 20, 20, 30), 0, 2),
                Records.inSession(Records.ok(2, 40, 40, 50), 0, 3),
                Records.inSession(Records.ok(3, 0, 0, 10), 1, 1),
                Records.inSession(Records.ok(4, 0, 0, 10), 2, 1),
                Records.inSession(Records.failed(5, 30, FailureClass.HTTP_5XX, 500, "boom"), 2, 2));

        SessionCounts counts = SessionCounts.of(records);

        assertThat(List.of(
                        counts.sessions(),
                        counts.turns(),
                        counts.turnsPerSessionMean(),
                        counts.turnsPerSessionMax(),
                        counts.sessionsAllSucceeded()))
                .containsExactly(3L, 6L, 2.0, 3, 2L);
        // Durations 50, 10 and 35 ms (the failed turn ended at 35); in the server 30, 10 and 15.
        assertThat(counts.durationMs().max()).isEqualTo(50.0);
        assertThat(counts.durationMs().min()).isEqualTo(10.0);
        assertThat(counts.durationMs().mean()).isCloseTo(95.0 / 3, within(1e-9));
        assertThat(counts.serverMsMean()).isCloseTo(55.0 / 3, within(1e-9));
        assertThat(counts.betweenCallsMsMean()).isCloseTo(40.0 / 3, within(1e-9));
        assertThat(counts.serverShare()).isCloseTo(55.0 / 95, within(1e-9));
        // Turns 2 and 3 of session 0 and turn 2 of session 2 resend their 100 tokens: 300 of 600.
        assertThat(counts.intendedPrefixShare()).isCloseTo(0.5, within(1e-9));
        assertThat(counts.byTurn())
                .extracting(SessionCounts.TurnLatency::turn, SessionCounts.TurnLatency::count)
                .containsExactly(tuple(1, 3L), tuple(2, 1L), tuple(3, 1L));
    }

    @Test
    void durationsServerTimePrefixReuseAndLatencyByTurnAndContextByHand() {
        // One session of three turns whose context grows from 400 to 900 to 2000 tokens.
        List<RequestRecord> records = List.of(
                Records.inSession(
                        Records.streamed(
                                10, false, 0, 1, new double[] {21, 23, 25}, ones(3), Outcome.SUCCESS, 200, 400),
                        7,
                        1),
                Records.inSession(
                        Records.streamed(
                                11, false, 125, 126, new double[] {156, 160}, ones(2), Outcome.SUCCESS, 200, 900),
                        7,
                        2),
                Records.inSession(
                        Records.streamed(
                                12, false, 300, 300, new double[] {340, 341}, ones(2), Outcome.SUCCESS, 200, 2000),
                        7,
                        3));

        SessionCounts counts = SessionCounts.of(records);

        assertThat(counts.durationMs().p50()).isCloseTo(341.0, within(1e-9));
        // Send to end: 24, 34 and 41 ms.
        assertThat(counts.serverMsMean()).isCloseTo(99.0, within(1e-9));
        assertThat(counts.betweenCallsMsMean()).isCloseTo(242.0, within(1e-9));
        assertThat(counts.serverShare()).isCloseTo(99.0 / 341, within(1e-9));
        // Turn 2 resends 400 + 3 tokens, turn 3 900 + 2, of 3300 input tokens in all.
        assertThat(counts.intendedPrefixShare()).isCloseTo(1305.0 / 3300, within(1e-9));
        List<SessionCounts.TurnLatency> byTurn = counts.byTurn();
        assertThat(byTurn).extracting(SessionCounts.TurnLatency::turn).containsExactly(1, 2, 3);
        assertThat(byTurn).extracting(t -> t.ttftMs().p50()).containsExactly(20.0, 30.0, 40.0);
        // TPOT: (24 − 20) / 2, (34 − 30) / 1, (41 − 40) / 1.
        assertThat(byTurn).extracting(t -> t.tpotMs().p50()).containsExactly(2.0, 4.0, 1.0);
        assertThat(counts.byContext())
                .extracting(
                        SessionCounts.ContextLatency::fromTokens,
                        SessionCounts.ContextLatency::toTokens,
                        SessionCounts.ContextLatency::count,
                        c -> c.ttftMs().p50())
                .containsExactly(
                        tuple(0L, 512L, 1L, 20.0), tuple(512L, 1024L, 1L, 30.0), tuple(1024L, 2048L, 1L, 40.0));
    }

    @Test
    void tasksTakeEachRootWithItsSubagentsAndForksShareTheParentsContext() {
        // Task of session 0: its turn 1 (0–12 ms, 100 input tokens, 2 output), then subagents 1
        // (two turns) and 2 (one turn) forked after it, joined before its turn 2 at 60 ms. Task of
        // session 3: one turn sent 5 ms late. In journal order, each record after its end.
        List<RequestRecord> records = List.of(
                Records.inSession(streamed(0, 0, 0, 100, 10, 12), 0, 1),
                Records.inSubagent(streamed(1, 12, 12, 120, 20), 2, 1, 0),
                Records.inSession(streamed(2, 0, 5, 100, 25), 3, 1),
                Records.inSubagent(streamed(3, 12, 15, 150, 30, 31), 1, 1, 0),
                Records.inSubagent(streamed(4, 41, 41, 200, 50), 1, 2, 0),
                Records.inSession(streamed(5, 60, 60, 130, 70, 71), 0, 2));

        SessionCounts counts = SessionCounts.of(records);

        assertThat(counts.sessions()).isEqualTo(4);
        SessionCounts.Tasks tasks = counts.tasks();
        assertThat(List.of(tasks.tasks(), tasks.turnsPerTaskMean(), tasks.turnsPerTaskMax()))
                .containsExactly(2L, 3.0, 5);
        // Task 0 from 0 to 71 ms; task 3 from 0 to 25 ms.
        assertThat(List.of(
                        tasks.durationMs().min(),
                        tasks.durationMs().max(),
                        tasks.durationMs().mean()))
                .containsExactly(25.0, 71.0, 48.0);
        // Task 0 in the server: 0–12, 12–20 and 15–31 overlap into 0–31, then 41–50 and 60–71:
        // 51 ms, 20 waiting. Task 3: 5–25, 20 ms, 5 waiting.
        assertThat(tasks.serverMsMean()).isCloseTo(35.5, within(1e-9));
        assertThat(tasks.waitingMsMean()).isCloseTo(12.5, within(1e-9));
        assertThat(tasks.serverShare()).isCloseTo(71.0 / 96, within(1e-9));
        // Resent: both subagents' first turns the parent's 102-token context, subagent 1's turn 2
        // its own 152, session 0's turn 2 its 102; of 800 input tokens.
        assertThat(counts.intendedPrefixShare()).isCloseTo(458.0 / 800, within(1e-9));
    }

    @Test
    void interTokenLatencyByTurnPoolsEveryGapOfTheTurnsRequests() {
        // Turn 1 of two sessions: gaps of 1 and 8 ms (TPOT 4.5) and of 2 ms (TPOT 2); turn 2 one
        // request with gaps of 3 and 3 ms.
        List<RequestRecord> records = List.of(
                Records.inSession(streamed(0, 0, 0, 100, 10, 11, 19), 0, 1),
                Records.inSession(streamed(1, 0, 0, 100, 10, 12), 1, 1),
                Records.inSession(streamed(2, 30, 30, 300, 40, 43, 46), 0, 2));

        List<SessionCounts.TurnLatency> byTurn = SessionCounts.of(records).byTurn();

        SessionCounts.TurnLatency first = byTurn.getFirst();
        assertThat(first.itlMs().count()).isEqualTo(3);
        assertThat(List.of(
                        first.itlMs().min(), first.itlMs().p50(), first.itlMs().max()))
                .containsExactly(1.0, 2.0, 8.0);
        assertThat(first.itlMs().mean()).isCloseTo(11.0 / 3, within(1e-9));
        // TPOT averages within each request: its largest is 4.5, where a user waited 8 ms.
        assertThat(first.tpotMs().max()).isEqualTo(4.5);
        assertThat(first.tpotMs().count()).isEqualTo(2);
        assertThat(List.of(byTurn.get(1).itlMs().count(), byTurn.get(1).itlMs().p50()))
                .containsExactly(2L, 3.0);
    }

    /** A successful streamed record of one token per event ending at its last token. */
    private static RequestRecord streamed(long index, double intendedMs, double sentMs, int input, double... tokenMs) {
        return Records.streamed(
                index, false, intendedMs, sentMs, tokenMs, ones(tokenMs.length), Outcome.SUCCESS, 200, input);
    }

    private static int[] ones(int n) {
        int[] counts = new int[n];
        java.util.Arrays.fill(counts, 1);
        return counts;
    }

    @Test
    void requestsOutsideSessionsHaveNone() {
        assertThat(SessionCounts.of(List.of(Records.ok(0, 0, 0, 10)))).isNull();
    }
}
