package dev.llmload.analysis;

import dev.llmload.record.RequestRecord;
import dev.llmload.config.Load;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How well the client kept its schedule ({@code schedule} in {@code report.json}): the arrival
 * rate asked for and the one achieved, and the send lag (actual − intended send) of requests that
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
 * @param achievedRate  arrivals per second as sent; null likewise
 * @param sent          measured requests that were sent
 * @param waitedAtGate  of those, the ones that waited at a full gate (left out of the lag)
 * @param lagMs         send lag of the others; a closed loop of sessions counts turns 2..n only
 */
public record ScheduleFidelity(String arrivals, Double targetRate, Double scheduledRate, Double achievedRate,
                               long sent, long waitedAtGate, Summary lagMs) {

    /**
     * @param sessionGate {@code --max-sessions} of an open-loop session run; null otherwise
     * @return null for a closed loop of independent requests, which has no schedule
     */
    public static ScheduleFidelity of(List<RequestRecord> all, Load load, Integer sessionGate) {
        Lags lags = lags(all, load, sessionGate);
        if (lags == null) {
            return null;
        }
        List<RequestRecord> arrivals = lags.sessions() ? lags.measuredSent().stream().filter(ScheduleFidelity::firstTurn).toList()
                : lags.measuredSent();
        return new ScheduleFidelity(lags.sessions() ? "sessions" : "requests", load.requestRate(),
                load.isOpen() ? rate(arrivals.stream().mapToLong(r -> r.timings().intendedSendNanos()).toArray()) : null,
                load.isOpen() ? rate(arrivals.stream().mapToLong(r -> r.timings().sentNanos()).toArray()) : null,
                lags.measuredSent().size(), lags.waitedAtGate(), Statistics.summarize(lags.lagsMs()));
    }

    /**
     * @param measuredSent the measured requests that were sent
     * @param lagsMs       the send lag of those that did not wait at a gate, in intended-send order
     */
    record Lags(boolean sessions, List<RequestRecord> measuredSent, long waitedAtGate, double[] lagsMs) {}

    /** The send lags of a run; null when it has no schedule (a closed loop of independent requests). */
    static Lags lags(List<RequestRecord> all, Load load, Integer sessionGate) {
        boolean sessions = all.stream().anyMatch(r -> r.session() != null);
        if (!load.isOpen() && !sessions) {
            return null;
        }
        List<RequestRecord> measuredSent = all.stream().filter(r -> !r.warmup() && r.timings().sentNanos() >= 0)
                .sorted(java.util.Comparator.comparingLong(r -> r.timings().intendedSendNanos())).toList();
        Integer gate = sessions ? sessionGate : load.maxConcurrency();
        long[][] holders = gate == null ? null : sessions ? sessionIntervals(all) : requestIntervals(all);
        long waited = 0;
        double[] lags = new double[measuredSent.size()];
        int n = 0;
        for (RequestRecord r : measuredSent) {
            if (!load.isOpen() && firstTurn(r)) {
                continue;
            }
            boolean mayWait = !sessions || firstTurn(r);
            if (holders != null && mayWait && NoteDetector.inFlightAt(r.timings().intendedSendNanos(), holders[0], holders[1]) >= gate) {
                waited++;
                continue;
            }
            lags[n++] = (r.timings().sentNanos() - r.timings().intendedSendNanos()) / 1e6;
        }
        return new Lags(sessions, measuredSent, waited, Arrays.copyOf(lags, n));
    }

    private static boolean firstTurn(RequestRecord r) {
        return r.session() != null && r.session().turn() == 1;
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
    private static long[][] requestIntervals(List<RequestRecord> all) {
        List<RequestRecord> sent = all.stream().filter(r -> r.timings().sentNanos() >= 0).toList();
        return new long[][] {
            sent.stream().mapToLong(r -> r.timings().sentNanos()).sorted().toArray(),
            sent.stream().mapToLong(r -> Math.max(r.timings().sentNanos(), r.timings().endNanos())).sorted().toArray()};
    }

    /** Sorted first sends and last ends of every session. */
    private static long[][] sessionIntervals(List<RequestRecord> all) {
        Map<Long, long[]> spans = new LinkedHashMap<>();
        for (RequestRecord r : all) {
            if (r.session() == null || r.timings().sentNanos() < 0) {
                continue;
            }
            long[] span = spans.computeIfAbsent(r.session().sessionId(), id -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            span[0] = Math.min(span[0], r.timings().sentNanos());
            span[1] = Math.max(span[1], Math.max(r.timings().sentNanos(), r.timings().endNanos()));
        }
        return new long[][] {
            spans.values().stream().mapToLong(s -> s[0]).sorted().toArray(),
            spans.values().stream().mapToLong(s -> s[1]).sorted().toArray()};
    }
}
