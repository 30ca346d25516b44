package dev.llmload.analysis;

import dev.llmload.metrics.RequestMetrics;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import java.util.Arrays;
import java.util.List;

/**
 * What the order-based analyses ({@link SteadyState}, {@link Saturation}, {@link LoadStage},
 * {@link ScheduleFidelity}, {@link NoteDetector}) need of each request, in primitive columns: its
 * times, its TTFT and E2E latency, whether it succeeded, its failure class and its session turn.
 * 62 bytes a request, about 80 with the columns' spare room and the shared sort (measured:
 * docs/performance.md), against some 250 for a record without its token gaps, so a run's requests
 * are taken from its journal in one pass and the records themselves are never held. The records may be with
 * or without their token gaps; positions are the order they were added. Owned by one thread.
 */
public final class RequestTimes {

    private static final byte WARMUP = 1;
    private static final byte SUCCEEDED = 2;
    private static final byte STREAMED = 4;
    private static final byte SESSION = 8;
    private static final FailureClass[] FAILURE_CLASSES = FailureClass.values();

    private long[] intended = new long[64];
    private long[] sent = new long[64];
    private long[] end = new long[64];
    private double[] ttftMs = new double[64];
    private double[] e2eMs = new double[64];
    private byte[] flags = new byte[64];
    /** The failure class's ordinal plus one; 0 for a success. */
    private byte[] failure = new byte[64];

    private long[] sessionId = new long[64];
    private int[] turn = new int[64];
    private int n;
    private int measured;
    private boolean sessions;
    private int[] byIntended;

    public static RequestTimes of(List<RequestRecord> records) {
        RequestTimes times = new RequestTimes();
        records.forEach(times::add);
        return times;
    }

    public void add(RequestRecord record) {
        if (n == intended.length) {
            grow();
        }
        RequestMetrics metrics = RequestMetrics.of(record);
        intended[n] = record.timings().intendedSendNanos();
        sent[n] = record.timings().sentNanos();
        end[n] = record.timings().endNanos();
        ttftMs[n] = metrics.ttftMs() == null ? Double.NaN : metrics.ttftMs();
        e2eMs[n] = metrics.e2eMs() == null ? Double.NaN : metrics.e2eMs();
        byte f = 0;
        if (record.warmup()) {
            f |= WARMUP;
        } else {
            measured++;
        }
        if (record.succeeded()) {
            f |= SUCCEEDED;
        }
        if (record.streamed()) {
            f |= STREAMED;
        }
        if (record.session() != null) {
            f |= SESSION;
            sessionId[n] = record.session().sessionId();
            turn[n] = record.session().turn();
            sessions = true;
        }
        flags[n] = f;
        failure[n] = record.outcome() instanceof Outcome.Failure fail
                ? (byte) (fail.failureClass().ordinal() + 1)
                : 0;
        n++;
        byIntended = null;
    }

    private void grow() {
        int size = 2 * n;
        intended = Arrays.copyOf(intended, size);
        sent = Arrays.copyOf(sent, size);
        end = Arrays.copyOf(end, size);
        ttftMs = Arrays.copyOf(ttftMs, size);
        e2eMs = Arrays.copyOf(e2eMs, size);
        flags = Arrays.copyOf(flags, size);
        failure = Arrays.copyOf(failure, size);
        sessionId = Arrays.copyOf(sessionId, size);
        turn = Arrays.copyOf(turn, size);
    }

    /** Every request added, warm-up included. */
    public int size() {
        return n;
    }

    /** The requests that are not warm-up. */
    public int measuredCount() {
        return measured;
    }

    /** Whether any request, warm-up included, belongs to a session. */
    public boolean anySession() {
        return sessions;
    }

    /**
     * The positions of the measured requests in order of intended send, those intended at the same
     * instant in the order they were added (a stable sort); computed once.
     */
    public int[] measuredByIntended() {
        if (byIntended == null) {
            int[] positions = new int[measured];
            int m = 0;
            for (int i = 0; i < n; i++) {
                if (!warmup(i)) {
                    positions[m++] = i;
                }
            }
            byIntended = stableSort(positions, intended);
        }
        return byIntended;
    }

    /**
     * {@code positions} sorted by {@code key[position]}, equal keys in the order they had: the
     * key's rank above the place, in one primitive sort.
     */
    static int[] stableSort(int[] positions, long[] key) {
        int m = positions.length;
        long[] distinct = new long[m];
        for (int j = 0; j < m; j++) {
            distinct[j] = key[positions[j]];
        }
        Arrays.sort(distinct);
        long[] keys = new long[m];
        for (int j = 0; j < m; j++) {
            keys[j] = (long) Arrays.binarySearch(distinct, key[positions[j]]) << 32 | j;
        }
        Arrays.sort(keys);
        int[] sorted = new int[m];
        for (int j = 0; j < m; j++) {
            sorted[j] = positions[(int) keys[j]];
        }
        return sorted;
    }

    /** {@code positions} sorted by send, equal sends in the order they had. */
    public int[] bySent(int[] positions) {
        return stableSort(positions, sent);
    }

    public long intendedNanos(int i) {
        return intended[i];
    }

    /** Negative when the request was never sent. */
    public long sentNanos(int i) {
        return sent[i];
    }

    public long endNanos(int i) {
        return end[i];
    }

    /** {@link RequestMetrics#ttftMs}; NaN where it is null. */
    public double ttftMs(int i) {
        return ttftMs[i];
    }

    /** {@link RequestMetrics#e2eMs}; NaN where it is null. */
    public double e2eMs(int i) {
        return e2eMs[i];
    }

    /** {@link RequestMetrics#clientQueueMs}, by the same arithmetic. */
    public double clientQueueMs(int i) {
        return (sent[i] - intended[i]) / 1_000_000.0;
    }

    public boolean warmup(int i) {
        return (flags[i] & WARMUP) != 0;
    }

    public boolean succeeded(int i) {
        return (flags[i] & SUCCEEDED) != 0;
    }

    public boolean streamed(int i) {
        return (flags[i] & STREAMED) != 0;
    }

    /** Null for a success. */
    public FailureClass failureClass(int i) {
        return failure[i] == 0 ? null : FAILURE_CLASSES[failure[i] - 1];
    }

    public boolean inSession(int i) {
        return (flags[i] & SESSION) != 0;
    }

    /** Meaningful only {@link #inSession}. */
    public long sessionId(int i) {
        return sessionId[i];
    }

    /** The turn's number in its session, from 1; 0 outside sessions. */
    public int turn(int i) {
        return turn[i];
    }
}
