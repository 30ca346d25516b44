package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.Load;
import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TimeoutKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoteDetectorTest {

    private static final Load OPEN = Load.open(100, Load.Arrival.POISSON, null, null);
    private static final Load CLOSED = Load.closed(8);

    /** {@code n} requests every 10 ms, each sent on time, TTFT 50 ms and a second token 10 ms later. */
    private static List<RequestRecord> clean(int n) {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double at = i * 10.0;
            records.add(Records.ok(i, at, at, at + 50, at + 60));
        }
        return records;
    }

    private static List<Note> detect(List<RequestRecord> records, Load load) {
        return NoteDetector.detect(records, RunResults.compute(records), load);
    }

    private static List<Note> ofKind(List<Note> notes, String kind) {
        return notes.stream().filter(n -> n.kind().equals(kind)).toList();
    }

    @Test
    void aCleanRunHasNoNotes() {
        assertThat(detect(clean(1000), OPEN)).isEmpty();
        assertThat(detect(clean(1000), CLOSED)).isEmpty();
        assertThat(detect(List.of(), OPEN)).isEmpty();
    }

    @Test
    void rateLimitingNamesCountTimesAndRetryAfter() {
        List<RequestRecord> records = clean(1000);
        for (int i = 0; i < 3; i++) {
            RequestRecord limited =
                    Records.failed(1000 + i, 1000 * (i + 1), FailureClass.RATE_LIMITED, 429, "Too Many Requests");
            records.add(i < 2 ? Records.withRetryAfter(limited, "1") : limited);
        }
        List<Note> notes = NoteDetector.detect(records, RunResults.compute(records), OPEN);

        assertThat(notes).extracting(Note::kind).containsExactly(NoteDetector.RATE_LIMITED);
        assertThat(notes.getFirst().message())
                .isEqualTo("3 of 1003 requests (0.3%) were rate limited (HTTP 429) "
                        + "between t=1.0 s and t=3.0 s; Retry-After 1 ×2");
    }

    @Test
    void outOfMemoryIsRecognisedByStatusOrMessage() {
        List<RequestRecord> records = clean(1000);
        records.add(Records.failed(
                1000, 2000, FailureClass.HTTP_5XX, 500, "CUDA out of memory. Tried to allocate 2.00 GiB"));
        records.add(Records.failed(1001, 1000, FailureClass.HTTP_5XX, 507, "Insufficient Storage"));
        records.add(Records.failed(1002, 3000, FailureClass.HTTP_5XX, 500, "no room for zoom"));

        List<Note> notes = ofKind(detect(records, OPEN), NoteDetector.OOM);
        assertThat(notes).hasSize(1);
        assertThat(notes.getFirst().message())
                .startsWith("2 requests failed")
                .contains("first at t=1.0 s")
                .endsWith("e.g. \"CUDA out of memory. Tried to allocate 2.00 GiB\"");
        assertThat(NoteDetector.OOM_MESSAGE.matcher("KV cache is full").find()).isTrue();
        assertThat(NoteDetector.OOM_MESSAGE.matcher("Engine OOM, restarting").find())
                .isTrue();
        assertThat(NoteDetector.OOM_MESSAGE
                        .matcher("Insufficient memory for request")
                        .find())
                .isTrue();
    }

    @Test
    void timeoutsAreCountedByKind() {
        List<RequestRecord> records = clean(1000);
        records.add(Records.timeout(1000, 100, TimeoutKind.FIRST_TOKEN));
        records.add(Records.timeout(1001, 200, TimeoutKind.TOTAL));
        records.add(Records.timeout(1002, 300, TimeoutKind.FIRST_TOKEN));

        assertThat(detect(records, OPEN))
                .containsExactly(
                        new Note(NoteDetector.TIMEOUTS, "3 of 1003 requests (0.3%) timed out: first_token 2, total 1"));
    }

    @Test
    void queueingLargeBesideTtftIsNoted() {
        // Closed loop, every request sent 100 ms after it was due; TTFT 50 ms.
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            double at = i * 10.0;
            records.add(Records.ok(i, at, at + 100, at + 150, at + 160));
        }
        List<Note> notes = detect(records, CLOSED);
        assertThat(notes).extracting(Note::kind).containsExactly(NoteDetector.QUEUEING);
        assertThat(notes.getFirst().message())
                .startsWith("requests waited a p50 of 100.0 ms at the client before being sent, beside a p50 TTFT "
                        + "of 50.0 ms");
    }

    @Test
    void trendNeedsBothFactorAndMarginAndEnoughSamples() {
        assertThat(NoteDetector.trend(thirds(10, 20, 40))).containsExactly(10, 40);
        assertThat(NoteDetector.trend(thirds(10, 20, 35))).containsExactly(10, 35);
        assertThat(NoteDetector.trend(thirds(10, 20, 29))).isNull(); // +19 ms
        assertThat(NoteDetector.trend(thirds(100, 100, 140))).isNull(); // 1.4×
        // 29 values: thirds of 9
        double[] short29 = new double[29];
        System.arraycopy(thirds(10, 20, 40), 1, short29, 0, 29);
        assertThat(NoteDetector.trend(short29)).isNull();
    }

    private static double[] thirds(double first, double middle, double last) {
        double[] values = new double[30];
        for (int i = 0; i < 30; i++) {
            values[i] = i < 10 ? first : i < 20 ? middle : last;
        }
        return values;
    }

    @Test
    void latencyDriftComparesFirstAndLastThirds() {
        // 999 requests; the last 333 have TTFT 100 ms instead of 50 (E2E 110 instead of 60).
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 999; i++) {
            double at = i * 10.0;
            double ttft = i >= 666 ? 100 : 50;
            records.add(Records.ok(i, at, at, at + ttft, at + ttft + 10));
        }
        List<Note> notes = ofKind(detect(records, CLOSED), NoteDetector.LATENCY_DRIFT);
        assertThat(notes).hasSize(1);
        assertThat(notes.getFirst().message())
                .contains("TTFT p50 rose from 50.0 ms in the first third of the requests to 100.0 ms in the last")
                .contains("E2E latency p50 rose from 60.0 ms in the first third of the requests to 110.0 ms");
    }

    /*
     * A and B are sent on time; C is due at 20 ms but waits for A or B to free a slot of a gate of
     * 2 (sent at 100 ms, lag 80 ms); D is sent on time. Ungated, the lags 0, 0, 80, 0 give p99 =
     * 0 + 0.97 · 80 = 77.6 ms. Behind a gate of 2, C found 2 in flight and is not lag.
     */
    private static final List<RequestRecord> GATED = List.of(
            Records.ok(0, 0, 0, 50, 100),
            Records.ok(1, 10, 10, 50, 100),
            Records.ok(2, 20, 100, 150, 200),
            Records.ok(3, 300, 300, 350, 400));

    @Test
    void scheduleLagIsNotedInAnOpenLoop() {
        List<Note> notes = ofKind(detect(GATED, OPEN), NoteDetector.CLIENT_BEHIND_SCHEDULE);
        assertThat(notes).hasSize(1);
        assertThat(notes.getFirst().message())
                .contains("send lag p50 0.0 ms, p99 77.6 ms, max 80.0 ms over 4 " + "requests (1 later than 10.0 ms)");
    }

    @Test
    void waitingAtTheGateIsNotScheduleLag() {
        assertThat(ofKind(
                        detect(GATED, Load.open(100, Load.Arrival.POISSON, null, 2)),
                        NoteDetector.CLIENT_BEHIND_SCHEDULE))
                .isEmpty();
        assertThat(ofKind(detect(GATED, Load.closed(2)), NoteDetector.CLIENT_BEHIND_SCHEDULE))
                .isEmpty();
        long[] sends = {0, 10_000_000, 100_000_000, 300_000_000};
        long[] ends = {100_000_000, 100_000_000, 200_000_000, 400_000_000};
        assertThat(NoteDetector.inFlightAt(20_000_000, sends, ends)).isEqualTo(2);
        assertThat(NoteDetector.inFlightAt(100_000_000, sends, ends)).isEqualTo(2);
        assertThat(NoteDetector.inFlightAt(300_000_000, sends, ends)).isZero();
    }

    @Test
    void fewSamplesForTailPercentilesAreNoted() {
        List<Note> notes = detect(clean(40), OPEN);
        assertThat(notes)
                .containsExactly(new Note(
                        NoteDetector.LOW_SAMPLE_COUNT,
                        "p99 rests on fewer than 100 samples for ttft_ms 40, itl_ms 40, tpot_ms 40, e2e_latency_ms 40; "
                                + "p99_9 rests on fewer than 1,000 samples for ttft_ms 40, itl_ms 40, tpot_ms 40, "
                                + "e2e_latency_ms 40: read those percentiles as rough estimates, or measure at least 1,000"
                                + " requests (e.g. --num-requests 1000, warm-up not counted)"));
    }

    @Test
    void errorRateAboveFivePercentIsNoted() {
        List<RequestRecord> records = clean(1000);
        for (int i = 0; i < 60; i++) {
            records.add(Records.failed(1000 + i, i * 10.0, FailureClass.HTTP_5XX, 500, "internal"));
        }
        // 60 of 1060 = 5.66%
        assertThat(ofKind(detect(records, OPEN), NoteDetector.HIGH_ERROR_RATE))
                .containsExactly(
                        new Note(NoteDetector.HIGH_ERROR_RATE, "60 of 1060 requests failed (5.7%): http_5xx 60"));
        // 50 of 1000 = exactly 5%: not above the threshold
        List<RequestRecord> atThreshold = new ArrayList<>(clean(950));
        for (int i = 0; i < 50; i++) {
            atThreshold.add(Records.failed(1000 + i, i * 10.0, FailureClass.HTTP_5XX, 500, "internal"));
        }
        assertThat(ofKind(detect(atThreshold, OPEN), NoteDetector.HIGH_ERROR_RATE))
                .isEmpty();
    }

    @Test
    void warmUpRequestsAreIgnored() {
        List<RequestRecord> records = clean(1000);
        records.add(Records.streamed(
                2000,
                true,
                0,
                0,
                new double[0],
                new int[0],
                Outcome.Failure.of(FailureClass.RATE_LIMITED, "slow down"),
                429,
                10));
        assertThat(detect(records, OPEN)).isEmpty();
    }
}
