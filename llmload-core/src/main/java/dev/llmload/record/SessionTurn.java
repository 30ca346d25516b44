package dev.llmload.record;

/**
 * Where a request sits in a multi-turn session: journaled as {@code session_id}, {@code turn} and,
 * for a subagent, {@code parent_session_id}.
 *
 * @param sessionId       0-based, in the order sessions were made
 * @param turn            1-based
 * @param parentSessionId the session a subagent forked from, on each of its turns; null for a
 *                        session that forked from none (the root of an agent task)
 */
public record SessionTurn(long sessionId, int turn, Long parentSessionId) {

    /** A turn of a session that forked from none. */
    public SessionTurn(long sessionId, int turn) {
        this(sessionId, turn, null);
    }
}
