package dev.llmload.analysis;

import com.fasterxml.jackson.annotation.JsonAlias;
import dev.llmload.config.Load;
import dev.llmload.record.RequestRecord;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How well the client kept its schedule ({@code schedule} in {@code report.json}): the arrival
 * rate asked for and the one the sends made, and the send lag (actual − intended send) of requests that
 * did not wait at a concurrency gate. Computed from the measured (non-warm-up) records, so a
 * report rebuilt from the journal gets the same figures. Pure arithmetic.
 *
 * <p>Arrivals are what the schedule times: requests, or in a session run the sessions' first
 * turns. Rates are (n − 1) / (last − first) over the measured arrivals, intended and actual, so
 * a perfectly kept constant schedule shows exactly its rate.
 *
 * <p>A request that found its gate full waited for a slot; that is queueing, not lag, and is left
 * out. The record does not say whether a request waited: it is reconstructed by counting what held
 * the gate at the intended send (requests behind {@code --max-concurrency}; whole sessions, first
 * send to last end, behind {@code --max-sessions}, where only a first turn can wait).
 *
 * @param arrivals      {@code requests}, or {@code sessions} when each arrival starts a session
 * @param targetRate    the configured rate ({@code load.request_rate}); null when the shape has none
 * @param scheduledRate arrivals per second as scheduled; null for a closed loop or fewer than 2 arrivals
 * @param sentRate      arrivals per second as sent; null likewise. Not the saturation's
 *                      {@code achieved_request_rate}, which counts requests that ended (recorded as
 *                      {@code achieved_rate} before it had a name of its own, which a report still reads)
 * @param sent          measured requests that were sent
 * @param waitedAtGate  of those, the ones that waited at a full gate (left out of the lag)
 * @param lagMs         send lag of the others; a closed loop of sessions counts turns 2..n only
 */
public record ScheduleFidelity(
        String arrivals,
        Double targetRate,
        Double scheduledRate,
        @JsonAlias("achieved_rate") Double sentRate,
        long sent,
        long waitedAtGate,
        Summary lagMs) {

    /**
     * @param sessionGate {@code --max-sessions} of an open-loop session run; null otherwise
     * @return null for a closed loop of independent requests, which has no schedule
     */
    public static ScheduleFidelity of(List<RequestRecord> all, Load load, Integer sessionGate) {
        return of(RequestTimes.of(all), load, sessionGate);
    }

    /** {@link #of(List, Load, Integer)} of the requests of {@code times}. */
    public static ScheduleFidelity of(RequestTimes times, Load load, Integer sessionGate) {
        Lags lags = lags(times, load, sessionGate);
        if (lags == null) {
            return null;
        }
        int[] sent = lags.measuredSent();
        long[] intendedSends = new long[sent.length];
        long[] actualSends = new long[sent.length];
        int arrivals = 0;
        for (int i : sent) {
            if (!lags.sessions() || firstTurn(times, i)) {
                intendedSends[arrivals] = times.intendedNanos(i);
                actualSends[arrivals++] = times.sentNanos(i);
            }
        }
        return new ScheduleFidelity(
                lags.sessions() ? "sessions" : "requests",
                load.requestRate(),
                load.isOpen() ? rate(Arrays.copyOf(intendedSends, arrivals)) : null,
                load.isOpen() ? rate(Arrays.copyOf(actualSends, arrivals)) : null,
                sent.length,
                lags.waitedAtGate(),
                Statistics.summarize(lags.lagsMs()));
    }

    /**
     * @param measuredSent the positions of the measured requests that were sent, in intended-send order
     * @param lagsMs       the send lag of those that did not wait at a gate, in intended-send order
     */
    record Lags(boolean sessions, int[] measuredSent, long waitedAtGate, double[] lagsMs) {}

    /** The send lags of a run; null when it has no schedule (a closed loop of independent requests). */
    static Lags lags(RequestTimes times, Load load, Integer sessionGate) {
        boolean sessions = times.anySession();
        if (!load.isOpen() && !sessions) {
            return null;
        }
        int[] byIntended = times.measuredByIntended();
        int[] measuredSent = new int[byIntended.length];
        int sentCount = 0;
        for (int i : byIntended) {
            if (times.sentNanos(i) >= 0) {
                measuredSent[sentCount++] = i;
            }
        }
        measuredSent = Arrays.copyOf(measuredSent, sentCount);
        Integer gate = sessions ? sessionGate : load.maxConcurrency();
        long[][] holders = gate == null ? null : sessions ? sessionIntervals(times) : requestIntervals(times);
        long waited = 0;
        double[] lags = new double[sentCount];
        int n = 0;
        for (int i : measuredSent) {
            if (!load.isOpen() && firstTurn(times, i)) {
                continue;
            }
            boolean mayWait = !sessions || firstTurn(times, i);
            if (holders != null
                    && mayWait
                    && NoteDetector.inFlightAt(times.intendedNanos(i), holders[0], holders[1]) >= gate) {
                waited++;
                continue;
            }
            lags[n++] = (times.sentNanos(i) - times.intendedNanos(i)) / 1e6;
        }
        return new Lags(sessions, measuredSent, waited, Arrays.copyOf(lags, n));
    }

    private static boolean firstTurn(RequestTimes times, int i) {
        return times.inSession(i) && times.turn(i) == 1;
    }

    private static Double rate(long[] nanos) {
        if (nanos.length < 2) {
            return null;
        }
        long first = Arrays.stream(nanos).min().orElseThrow();
        long last = Arrays.stream(nanos).max().orElseThrow();
        return last == first ? null : (nanos.length - 1) / ((last - first) / 1e9);
    }

    /** Sorted sends and ends of every sent request, warm-up included (it held slots too). */
    private static long[][] requestIntervals(RequestTimes times) {
        long[] sends = new long[times.size()];
        long[] ends = new long[times.size()];
        int k = 0;
        for (int i = 0; i < times.size(); i++) {
            if (times.sentNanos(i) >= 0) {
                sends[k] = times.sentNanos(i);
                ends[k++] = Math.max(times.sentNanos(i), times.endNanos(i));
            }
        }
        sends = Arrays.copyOf(sends, k);
        ends = Arrays.copyOf(ends, k);
        Arrays.sort(sends);
        Arrays.sort(ends);
        return new long[][] {sends, ends};
    }

    /** Sorted first sends and last ends of every session: one entry per session. */
    private static long[][] sessionIntervals(RequestTimes times) {
        Map<Long, long[]> spans = new LinkedHashMap<>();
        for (int i = 0; i < times.size(); i++) {
            if (!times.inSession(i) || times.sentNanos(i) < 0) {
                continue;
            }
            long[] span = spans.computeIfAbsent(times.sessionId(i), id -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            span[0] = Math.min(span[0], times.sentNanos(i));
            span[1] = Math.max(span[1], Math.max(times.sentNanos(i), times.endNanos(i)));
        }
        return new long[][] {
            spans.values().stream().mapToLong(s -> s[0]).sorted().toArray(),
            spans.values().stream().mapToLong(s -> s[1]).sorted().toArray()
        };
    }
}
