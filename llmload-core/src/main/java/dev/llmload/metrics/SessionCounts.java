package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a multi-turn run actually did ({@code results.sessions} in {@code report.json}), beside the
 * settings it was given: a session ends early when one of its turns fails or the run's bounds cut
 * it, so the turns run can fall short of sessions × turns. Pure.
 *
 * @param sessions              sessions with at least one measured turn
 * @param turns                 measured turns (requests), any outcome
 * @param turnsPerSessionMean   {@code turns / sessions}
 * @param turnsPerSessionMax    the most measured turns of one session
 * @param sessionsAllSucceeded  sessions whose every measured turn succeeded
 */
public record SessionCounts(
        long sessions, long turns, double turnsPerSessionMean, int turnsPerSessionMax, long sessionsAllSucceeded) {

    /** @return null when no measured request belongs to a session */
    public static SessionCounts of(List<RequestRecord> measured) {
        Tally tally = new Tally();
        measured.forEach(tally::add);
        return tally.result();
    }

    /**
     * The counts taken as records stream past. Memory: one entry per session (two ints), not per
     * request. Owned by one thread.
     */
    public static final class Tally {

        /** {turns, failed turns} of each session. */
        private final Map<Long, int[]> bySession = new HashMap<>();

        private long turns;

        /** Counts one measured record (the caller leaves warm-up out). */
        public void add(RequestRecord record) {
            if (record.session() == null) {
                return;
            }
            turns++;
            int[] counts = bySession.computeIfAbsent(record.session().sessionId(), id -> new int[2]);
            counts[0]++;
            if (!record.succeeded()) {
                counts[1]++;
            }
        }

        /** @return null when no record belonged to a session */
        public SessionCounts result() {
            if (bySession.isEmpty()) {
                return null;
            }
            int max = 0;
            long clean = 0;
            for (int[] counts : bySession.values()) {
                max = Math.max(max, counts[0]);
                if (counts[1] == 0) {
                    clean++;
                }
            }
            return new SessionCounts(bySession.size(), turns, (double) turns / bySession.size(), max, clean);
        }
    }
}
