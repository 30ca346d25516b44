package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.Load;
import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each {@link NoteRule} on hand-made records at its threshold and just short of it: the note
 * appears on one side only, with the figures computed here by hand.
 */
class NoteRuleThresholdTest {

    private static final Load OPEN = Load.open(100, Load.Arrival.POISSON, null, null);
    private static final Load CLOSED = Load.closed(8);

    private static List<Note> ofKind(List<RequestRecord> records, Load load, String kind) {
        return NoteDetector.detect(records, RunResults.compute(records), load).stream()
                .filter(n -> n.kind().equals(kind))
                .toList();
    }

    /** 1000 requests every 10 ms, each sent {@code queueMs} after it was due, TTFT {@code ttftMs}. */
    private static List<RequestRecord> queued(double queueMs, double ttftMs) {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            double at = i * 10.0;
            records.add(Records.ok(i, at, at + queueMs, at + queueMs + ttftMs, at + queueMs + ttftMs + 10));
        }
        return records;
    }

    @Test
    void queueingAtHalfTheTtftIsNotedAndJustBelowIsNot() {
        // 25 ms of queue beside a TTFT of 50 ms: 25 ≥ 0.5 × 50 and 25 > 20.
        assertThat(ofKind(queued(25, 50), CLOSED, QueueingRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .isEqualTo("requests waited a p50 of 25.0 ms at the client before being sent, beside a p50 TTFT "
                        + "of 50.0 ms: more load was offered than was served (see the *_from_intended latencies)");
        assertThat(ofKind(queued(24.9, 50), CLOSED, QueueingRule.KIND)).isEmpty();
        // Beside a TTFT of 30 ms the 20 ms floor decides: 20.1 ms is over it, 20 ms is not.
        assertThat(ofKind(queued(20.1, 30), CLOSED, QueueingRule.KIND)).hasSize(1);
        assertThat(ofKind(queued(20, 30), CLOSED, QueueingRule.KIND)).isEmpty();
    }

    /** 200 requests every 10 ms of an open loop, each sent {@code lagMs} late. */
    private static List<RequestRecord> late(double lagMs) {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            double at = i * 10.0;
            records.add(Records.ok(i, at, at + lagMs, at + lagMs + 50, at + lagMs + 60));
        }
        return records;
    }

    @Test
    void scheduleLagAboveTenMsIsNotedAndTenIsNot() {
        // Every lag equal: p50 = p99 = max = the lag.
        assertThat(ofKind(late(10.1), OPEN, BehindScheduleRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .isEqualTo("the client could not keep its open-loop schedule: send lag p50 10.1 ms, p99 10.1 ms, "
                        + "max 10.1 ms over 200 requests (200 later than 10.0 ms); the load offered was lower and "
                        + "burstier than configured");
        assertThat(ofKind(late(10), OPEN, BehindScheduleRule.KIND)).isEmpty();
    }

    /** {@code n} requests every 10 ms, each with one inter-token gap: n samples of every latency. */
    private static List<RequestRecord> clean(int n) {
        return queued(0, 50).subList(0, n);
    }

    @Test
    void tailPercentilesNeedOneHundredAndOneThousandSamples() {
        assertThat(ofKind(clean(99), OPEN, LowSampleCountRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .asString()
                .startsWith("p99 rests on fewer than 100 samples for ttft_ms 99, itl_ms 99, tpot_ms 99, "
                        + "e2e_latency_ms 99; p99_9 rests on fewer than 1,000 samples");
        assertThat(ofKind(clean(100), OPEN, LowSampleCountRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .asString()
                .startsWith("p99_9 rests on fewer than 1,000 samples for ttft_ms 100");
        assertThat(ofKind(clean(999), OPEN, LowSampleCountRule.KIND)).hasSize(1);
        assertThat(ofKind(clean(1000), OPEN, LowSampleCountRule.KIND)).isEmpty();
    }

    /**
     * Requests every second from t=0; those at the given seconds failed to connect, the others
     * succeeded.
     */
    private static List<RequestRecord> connectFailuresAt(int requests, int... failedSeconds) {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            double at = i * 1000.0;
            boolean failed = java.util.Arrays.stream(failedSeconds).anyMatch(s -> s == (int) (at / 1000));
            records.add(
                    failed
                            ? Records.failed(i, at, FailureClass.CONNECT, 0, "Connection refused")
                            : Records.ok(i, at, at, at + 50, at + 60));
        }
        return records;
    }

    @Test
    void threeConnectionFailuresInARowAreAnOutageAndTwoAreNot() {
        assertThat(ofKind(connectFailuresAt(6, 1, 2, 3), CLOSED, TargetUnreachableRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .isEqualTo("the target could not be reached from t=1.0 s to t=4.0 s "
                        + "(3 connection failures); 3 requests failed to connect in all, and a closed loop backed off "
                        + "(50 ms doubling to 2 s) while it was away");
        assertThat(ofKind(connectFailuresAt(6, 1, 2, 4, 5), CLOSED, TargetUnreachableRule.KIND))
                .isEmpty();
        assertThat(ofKind(connectFailuresAt(6, 3, 4, 5), CLOSED, TargetUnreachableRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .asString()
                .startsWith(
                        "the target could not be reached from t=3.0 s to the end of the run (3 connection failures)");
    }

    @Test
    void aCancelledRequestNeitherBreaksNorLengthensARun() {
        // Failures at 1 s and 3 s, cancelled at 2 s: two in a row; one more at 3.5 s makes three.
        List<RequestRecord> records = connectFailuresAt(6, 1, 3);
        records.set(2, Records.failed(2, 2000, FailureClass.CANCELLED, 0, "run ended"));
        assertThat(ofKind(records, CLOSED, TargetUnreachableRule.KIND)).isEmpty();
        records.add(Records.failed(6, 3500, FailureClass.CONNECT, 0, "Connection refused"));
        assertThat(ofKind(records, CLOSED, TargetUnreachableRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .asString()
                .startsWith("the target could not be reached from t=1.0 s to t=4.0 s (3 connection failures)");
    }

    @Test
    void oneUnstreamedSuccessOfAStreamedRunIsNotedOnlyWhenAStreamWasAskedFor() {
        List<RequestRecord> records = new ArrayList<>(clean(1000));
        records.add(Records.unstreamed(1000, 10_000, 10_100, 20));
        RunResults results = RunResults.compute(records);
        assertThat(NoteDetector.detect(records, results, CLOSED, null, true))
                .filteredOn(n -> n.kind().equals(StreamIgnoredRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .isEqualTo("1 of 1001 succeeded requests were answered in one JSON body although a stream was asked "
                        + "for: the server ignores \"stream\", so they have no TTFT, ITL or TPOT, only E2E latency");
        assertThat(NoteDetector.detect(records, results, CLOSED, null, false))
                .noneMatch(n -> n.kind().equals(StreamIgnoredRule.KIND));
        assertThat(NoteDetector.detect(clean(1000), RunResults.compute(clean(1000)), CLOSED, null, true))
                .noneMatch(n -> n.kind().equals(StreamIgnoredRule.KIND));
    }

    private static List<Note> withVerdicts(Saturation saturation, SteadyState steadyState) {
        List<RequestRecord> records = clean(1000);
        return NoteDetector.detect(records, RunResults.compute(records), OPEN, null, false, saturation, steadyState);
    }

    private static Saturation saturation(Boolean saturated) {
        return new Saturation(10.0, null, 100, 9.9, 10.0, 5.0, 20, 10, 0.1, 1.0, 12.5, 3.2, saturated, null);
    }

    @Test
    void saturationIsNotedOnItsVerdictOnly() {
        assertThat(withVerdicts(saturation(true), null))
                .singleElement()
                .isEqualTo(new Note(
                        SaturatedRule.KIND,
                        "offered 10.00 req/s, scheduled 10.00 req/s over 9.9 s of arrivals, achieved 5.00 req/s; at the last "
                                + "arrival 30 requests were unfinished (20 in flight, 10 queued at the client) where a server "
                                + "keeping up would hold about 1.0 (its starting latency 0.100 s × the rate), and 12.5 on "
                                + "average over the last third of the arrivals; the backlog took 3.2 s to drain after the last "
                                + "arrival: more load was offered than the server could serve, so its latencies grow with the "
                                + "run's length"));
        assertThat(withVerdicts(saturation(false), null)).isEmpty();
        assertThat(withVerdicts(saturation(null), null)).isEmpty();
    }

    @Test
    void aRunWithoutAPlateauIsNotedWithTheLengthItWouldNeed() {
        SteadyState trending = new SteadyState(false, null, 12.0, 1000, 0, 4000L, 48.0, null);
        assertThat(withVerdicts(null, trending))
                .singleElement()
                .isEqualTo(new Note(
                        NoSteadyStateRule.KIND,
                        "the latency from intended send to end still trended halfway through the 12.0 s of arrivals (MSER-5 "
                                + "finds no plateau before the middle of the run): every result describes a transient, not "
                                + "the server's steady state; a run of at least 4000 requests (48.0 s of arrivals) would be "
                                + "needed"));
        assertThat(withVerdicts(saturation(true), trending))
                .filteredOn(n -> n.kind().equals(NoSteadyStateRule.KIND))
                .singleElement()
                .extracting(Note::message)
                .asString()
                .endsWith("the run is saturated, so no length will do at this load: lower it");
        assertThat(withVerdicts(null, new SteadyState(true, 1.0, 12.0, 1000, 50, null, null, null)))
                .isEmpty();
    }
}
