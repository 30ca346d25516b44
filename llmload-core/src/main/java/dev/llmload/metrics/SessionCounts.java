package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import dev.llmload.stats.DistributionAccumulator;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a session run actually did ({@code results.sessions} in {@code report.json}), beside the
 * settings it was given: a session ends early when one of its turns fails or the run's bounds cut
 * it, so the turns run can fall short of sessions × turns. Every session counts on its own, a
 * subagent included. Pure.
 *
 * @param sessions              sessions with at least one measured turn
 * @param turns                 measured turns (requests), any outcome
 * @param turnsPerSessionMean   {@code turns / sessions}
 * @param turnsPerSessionMax    the most measured turns of one session
 * @param sessionsAllSucceeded  sessions whose every measured turn succeeded
 * @param durationMs            per session, from its first measured turn's intended send to its
 *                              last measured turn's end
 * @param serverMsMean          per session, the mean of the sum of its turns' send-to-end times
 * @param betweenCallsMsMean    per session, the mean of its duration less its server time: tool
 *                              waits, think times, waits for subagents and send lag
 * @param serverShare           all sessions' server time over all their durations; null when the
 *                              durations are 0
 * @param intendedPrefixShare   the share of the measured turns' input tokens that the workload
 *                              resent from the turn before (its input and answer): the prefix a
 *                              server's cache could reuse by design. A lower bound: a subagent's
 *                              first turn and a turn whose previous turn was not measured count none
 * @param byTurn                TTFT and TPOT of successful turns by turn number
 * @param byContext             TTFT of successful turns by input length
 */
public record SessionCounts(
        long sessions,
        long turns,
        double turnsPerSessionMean,
        int turnsPerSessionMax,
        long sessionsAllSucceeded,
        Summary durationMs,
        double serverMsMean,
        double betweenCallsMsMean,
        Double serverShare,
        Double intendedPrefixShare,
        List<TurnLatency> byTurn,
        List<ContextLatency> byContext) {

    /** Turns from this number on share the last row of {@link #byTurn}. */
    public static final int LAST_TURN_ROW = 64;

    /** The upper end of the first input-length bin; each later bin is twice as wide as the one before. */
    public static final int FIRST_CONTEXT_BIN_TOKENS = 512;

    /** Values kept exactly per row before a row's percentiles come from its histogram (0.1 % error). */
    private static final int ROW_EXACT_CAPACITY = 1 << 16;

    public SessionCounts {
        byTurn = List.copyOf(byTurn);
        byContext = List.copyOf(byContext);
    }

    /**
     * @param turn    1-based; the row of {@link #LAST_TURN_ROW} holds every later turn too
     * @param count   successful turns of this number
     * @param ttftMs  their TTFT
     * @param tpotMs  their mean inter-token latency each (TPOT), where they have one
     */
    public record TurnLatency(int turn, long count, Summary ttftMs, Summary tpotMs) {}

    /**
     * @param fromTokens input tokens, inclusive
     * @param toTokens   input tokens, exclusive
     * @param count      successful turns in the bin
     * @param ttftMs     their TTFT
     */
    public record ContextLatency(long fromTokens, long toTokens, long count, Summary ttftMs) {}

    /** @return null when no measured request belongs to a session */
    public static SessionCounts of(List<RequestRecord> measured) {
        Tally tally = new Tally();
        measured.forEach(tally::add);
        return tally.result();
    }

    /** The bin of an input length: 0 below {@link #FIRST_CONTEXT_BIN_TOKENS}, then one per doubling. */
    static int contextBin(long inputTokens) {
        if (inputTokens < FIRST_CONTEXT_BIN_TOKENS) {
            return 0;
        }
        return 64 - Long.numberOfLeadingZeros(inputTokens / FIRST_CONTEXT_BIN_TOKENS);
    }

    /** The lower end of a bin, in tokens. */
    static long binFromTokens(int bin) {
        return bin == 0 ? 0 : (long) FIRST_CONTEXT_BIN_TOKENS << (bin - 1);
    }

    /**
     * The counts taken as records stream past. Memory: one small entry per session, and per turn
     * number and input-length bin a distribution. Within a session, records must come in turn
     * order (a journal's order: a turn is sent only after the one before it ended). Owned by one
     * thread.
     */
    public static final class Tally {

        private final Map<Long, SessionState> bySession = new HashMap<>();
        private final Map<Integer, DistributionAccumulator[]> byTurn = new TreeMap<>();
        private final Map<Integer, DistributionAccumulator> byContext = new TreeMap<>();

        private long turns;
        private long inputTokens;
        private long prefixTokens;

        /** Counts one measured record (the caller leaves warm-up out). */
        public void add(RequestRecord record) {
            if (record.session() == null) {
                return;
            }
            turns++;
            SessionState state = bySession.computeIfAbsent(record.session().sessionId(), id -> new SessionState());
            state.turns++;
            if (!record.succeeded()) {
                state.failed = true;
            }
            state.firstIntendedNanos =
                    Math.min(state.firstIntendedNanos, record.timings().intendedSendNanos());
            state.lastEndNanos = Math.max(state.lastEndNanos, record.timings().endNanos());
            state.serverNanos +=
                    Math.max(0, record.timings().endNanos() - record.timings().sentNanos());
            inputTokens += record.inputTokens();
            if (state.previousTurn == record.session().turn() - 1 && state.previousTurn > 0) {
                prefixTokens += Math.min(record.inputTokens(), state.previousContextTokens);
            }
            state.previousTurn = record.session().turn();
            state.previousContextTokens = (long) record.inputTokens() + record.outputTokens();
            if (!record.succeeded()) {
                return;
            }
            RequestMetrics metrics = RequestMetrics.of(record);
            DistributionAccumulator[] turn =
                    byTurn.computeIfAbsent(Math.min(record.session().turn(), LAST_TURN_ROW), t ->
                            new DistributionAccumulator[] {row(), row()});
            if (metrics.ttftMs() != null) {
                turn[0].add(metrics.ttftMs());
                byContext
                        .computeIfAbsent(contextBin(record.inputTokens()), b -> row())
                        .add(metrics.ttftMs());
            }
            if (metrics.tpotMs() != null) {
                turn[1].add(metrics.tpotMs());
            }
        }

        private static DistributionAccumulator row() {
            return new DistributionAccumulator(ROW_EXACT_CAPACITY, DistributionAccumulator.DEFAULT_RELATIVE_ERROR);
        }

        /** @return null when no record belonged to a session */
        public SessionCounts result() {
            if (bySession.isEmpty()) {
                return null;
            }
            int max = 0;
            long clean = 0;
            long serverNanos = 0;
            long durationNanos = 0;
            DistributionAccumulator durations = new DistributionAccumulator();
            for (SessionState state : bySession.values()) {
                max = Math.max(max, state.turns);
                if (!state.failed) {
                    clean++;
                }
                long duration = Math.max(0, state.lastEndNanos - state.firstIntendedNanos);
                durations.addNanosAsMillis(duration);
                durationNanos += duration;
                serverNanos += Math.min(state.serverNanos, duration);
            }
            int sessions = bySession.size();
            List<TurnLatency> turnRows = new ArrayList<>();
            byTurn.forEach((turn, rows) ->
                    turnRows.add(new TurnLatency(turn, rows[0].count(), rows[0].summary(), rows[1].summary())));
            List<ContextLatency> contextRows = new ArrayList<>();
            byContext.forEach((bin, row) -> contextRows.add(
                    new ContextLatency(binFromTokens(bin), binFromTokens(bin + 1), row.count(), row.summary())));
            return new SessionCounts(
                    sessions,
                    turns,
                    (double) turns / sessions,
                    max,
                    clean,
                    durations.summary(),
                    serverNanos / 1e6 / sessions,
                    (durationNanos - serverNanos) / 1e6 / sessions,
                    durationNanos == 0 ? null : (double) serverNanos / durationNanos,
                    inputTokens == 0 ? null : (double) prefixTokens / inputTokens,
                    turnRows,
                    contextRows);
        }
    }

    /** One session's running figures. */
    private static final class SessionState {
        int turns;
        boolean failed;
        long firstIntendedNanos = Long.MAX_VALUE;
        long lastEndNanos = Long.MIN_VALUE;
        long serverNanos;
        int previousTurn;
        long previousContextTokens;
    }
}
