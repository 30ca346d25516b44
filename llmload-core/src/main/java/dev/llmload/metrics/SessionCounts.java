package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import dev.llmload.record.SessionTurn;
import dev.llmload.stats.DistributionAccumulator;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a session run actually did ({@code results.sessions} in {@code report.json}), beside the
 * settings it was given: a session ends early when one of its turns fails or the run's bounds cut
 * it, so the turns run can fall short of sessions × turns. Every session counts on its own, a
 * subagent included; {@link #tasks} takes each root session together with every subagent forked
 * from it, directly or not. Pure.
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
 *                              resent from the turn before (its input and answer; for a subagent's
 *                              first turn, the parent's turn it forks after): the prefix a server's
 *                              cache could reuse by design. A lower bound: a turn whose previous
 *                              turn was not measured counts none, and a prefix shared across
 *                              sessions (a common system prompt) counts only within a session
 * @param tasks                 the agent tasks: each root session with all its subagents
 * @param byTurn                TTFT, TPOT and ITL of successful turns by turn number
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
        Tasks tasks,
        List<TurnLatency> byTurn,
        List<ContextLatency> byContext) {

    /** Turns from this number on share the last row of {@link #byTurn}. */
    public static final int LAST_TURN_ROW = 64;

    /** The upper end of the first input-length bin; each later bin is twice as wide as the one before. */
    public static final int FIRST_CONTEXT_BIN_TOKENS = 512;

    /** Values kept exactly per row before a row's percentiles come from its histogram (0.1 % error). */
    static final int ROW_EXACT_CAPACITY = 1 << 16;

    public SessionCounts {
        byTurn = List.copyOf(byTurn);
        byContext = List.copyOf(byContext);
    }

    /**
     * Whole agent tasks: a root session (one that forked from none) with every subagent forked from
     * it, directly or not, until the last of their turns ended. A run without subagents has one
     * task per session.
     *
     * @param tasks            tasks with at least one measured turn
     * @param turnsPerTaskMean measured turns of a task and all its subagents, the mean over tasks
     * @param turnsPerTaskMax  the most measured turns of one task
     * @param durationMs       per task, from its first measured turn's intended send to the end of
     *                         the last measured turn of any of its sessions
     * @param serverMsMean     per task, the mean of the time in which at least one of its turns
     *                         was in the server (sent and not yet ended): subagents running side by
     *                         side count once
     * @param waitingMsMean    per task, the mean of its duration less that time: no call of the
     *                         task in the server (tool waits, think times, send lag)
     * @param serverShare      all tasks' server time over all their durations; null when the
     *                         durations are 0
     */
    public record Tasks(
            long tasks,
            double turnsPerTaskMean,
            int turnsPerTaskMax,
            Summary durationMs,
            double serverMsMean,
            double waitingMsMean,
            Double serverShare) {}

    /**
     * @param turn    1-based; the row of {@link #LAST_TURN_ROW} holds every later turn too
     * @param count   successful turns of this number
     * @param ttftMs  their TTFT
     * @param tpotMs  their mean inter-token latency each (TPOT), where they have one
     * @param itlMs   their inter-token gaps, one per token-bearing event after the first, pooled
     *                over all of them: the gaps a user of this turn waited, where TPOT averages
     *                each request's first
     */
    public record TurnLatency(int turn, long count, Summary ttftMs, Summary tpotMs, Summary itlMs) {}

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
        return tally.result(InterTokenGaps.of(measured));
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
     * number and input-length bin a distribution, and per task the send and end times of its turns
     * (two numbers a turn) for the time in which any of them was in the server. Within a session,
     * records must come in turn order, and a subagent's first turn after the parent's turn it forks
     * from (a journal's order: a turn is sent only after the one it follows ended). Owned by one
     * thread.
     */
    public static final class Tally {

        private final Map<Long, SessionState> bySession = new HashMap<>();
        private final Map<Long, TaskState> byTask = new HashMap<>();
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
            SessionState parent = record.session().parentSessionId() == null
                    ? null
                    : bySession.get(record.session().parentSessionId());
            if (state.taskId == null) {
                state.taskId = taskOf(record.session(), parent);
            }
            byTask.computeIfAbsent(state.taskId, id -> new TaskState()).add(record);
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
            } else if (record.session().turn() == 1 && parent != null && parent.previousTurn > 0) {
                // A subagent starts from its parent's context up to the answer it forks after,
                // which is the parent's latest turn: the parent's next one waits for the join.
                prefixTokens += Math.min(record.inputTokens(), parent.previousContextTokens);
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

        /** A root session is its own task; a subagent belongs to its parent's (the parent itself when unmeasured). */
        private static long taskOf(SessionTurn turn, SessionState parent) {
            if (turn.parentSessionId() == null) {
                return turn.sessionId();
            }
            return parent == null ? turn.parentSessionId() : parent.taskId;
        }

        private static DistributionAccumulator row() {
            return new DistributionAccumulator(ROW_EXACT_CAPACITY, DistributionAccumulator.DEFAULT_RELATIVE_ERROR);
        }

        /**
         * @param gaps the inter-token gaps of the same records, pooled from their full form
         * @return null when no record belonged to a session
         */
        public SessionCounts result(InterTokenGaps gaps) {
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
            Tasks tasks = tasks();
            List<TurnLatency> turnRows = new ArrayList<>();
            byTurn.forEach((turn, rows) -> turnRows.add(new TurnLatency(
                    turn,
                    rows[0].count(),
                    rows[0].summary(),
                    rows[1].summary(),
                    gaps.perEventByTurn().getOrDefault(turn, row()).summary())));
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
                    tasks,
                    turnRows,
                    contextRows);
        }

        private Tasks tasks() {
            int max = 0;
            long turnsInTasks = 0;
            long serverNanos = 0;
            long durationNanos = 0;
            DistributionAccumulator durations = new DistributionAccumulator();
            for (TaskState task : byTask.values()) {
                max = Math.max(max, task.turns);
                turnsInTasks += task.turns;
                long duration = Math.max(0, task.lastEndNanos - task.firstIntendedNanos);
                durations.addNanosAsMillis(duration);
                durationNanos += duration;
                serverNanos += Math.min(task.inServerNanos(), duration);
            }
            int count = byTask.size();
            return new Tasks(
                    count,
                    (double) turnsInTasks / count,
                    max,
                    durations.summary(),
                    serverNanos / 1e6 / count,
                    (durationNanos - serverNanos) / 1e6 / count,
                    durationNanos == 0 ? null : (double) serverNanos / durationNanos);
        }
    }

    /** One task's running figures: its window and each turn's time in the server. */
    private static final class TaskState {
        int turns;
        long firstIntendedNanos = Long.MAX_VALUE;
        long lastEndNanos = Long.MIN_VALUE;
        /** Send and end times of its turns, pairwise. */
        long[] sentAndEnd = new long[8];

        void add(RequestRecord record) {
            if (2 * turns == sentAndEnd.length) {
                sentAndEnd = Arrays.copyOf(sentAndEnd, 2 * sentAndEnd.length);
            }
            long sent = record.timings().sentNanos();
            long end = record.timings().endNanos();
            sentAndEnd[2 * turns] = sent;
            sentAndEnd[2 * turns + 1] = Math.max(sent, end);
            turns++;
            firstIntendedNanos = Math.min(firstIntendedNanos, record.timings().intendedSendNanos());
            lastEndNanos = Math.max(lastEndNanos, end);
        }

        /** The length of the union of the turns' send-to-end intervals. */
        long inServerNanos() {
            Integer[] order = new Integer[turns];
            for (int i = 0; i < turns; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingLong(i -> sentAndEnd[2 * i]));
            long total = 0;
            long coveredTo = Long.MIN_VALUE;
            for (int i : order) {
                long from = Math.max(sentAndEnd[2 * i], coveredTo);
                long to = sentAndEnd[2 * i + 1];
                if (to > from) {
                    total += to - from;
                    coveredTo = to;
                }
            }
            return total;
        }
    }

    /** One session's running figures. */
    private static final class SessionState {
        Long taskId;
        int turns;
        boolean failed;
        long firstIntendedNanos = Long.MAX_VALUE;
        long lastEndNanos = Long.MIN_VALUE;
        long serverNanos;
        int previousTurn;
        long previousContextTokens;
    }
}
