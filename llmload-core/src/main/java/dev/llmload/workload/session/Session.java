package dev.llmload.workload.session;

import dev.llmload.workload.RequestSpec;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * One conversation the session dispatcher drives turn by turn: it sends {@link #firstTurn}, then,
 * once the answer has ended and {@link #thinkTimeBeforeNextTurn} has passed (and not before
 * {@link #nextTurnNotBeforeNanos}), {@link #nextTurn} with the text the model actually answered,
 * until {@link #hasNextTurn} is false. After each answered turn it asks for the {@link #forks}
 * that start there: subagent sessions that begin from this session's history, run on their own,
 * and must all have ended before this session's next turn is sent (the join).
 *
 * <p>Not thread-safe: a session is driven by one thread at a time, turn after turn.
 */
public sealed interface Session permits ChatSession, TraceSession {

    /** 0-based: the order a synthetic source made sessions, or a trace's order of first appearance. */
    long id();

    /** Turns this session and every session forking from it will send in all. */
    int turns();

    /** Turns made so far. */
    int turnsSent();

    boolean hasNextTurn();

    /** The pause before the next turn, from the end of the answer (or join) it follows. */
    Duration thinkTimeBeforeNextTurn();

    /**
     * The earliest send time of the next turn in nanoseconds after the run's start (a trace's
     * absolute timestamp), or empty when only the answer and the pause decide.
     */
    default OptionalLong nextTurnNotBeforeNanos() {
        return OptionalLong.empty();
    }

    /** The first turn. */
    RequestSpec firstTurn();

    /**
     * The next turn: the history so far, the model's answer to the last turn, and the new input.
     *
     * @param previousAnswer the text the model answered to the last turn sent
     */
    RequestSpec nextTurn(String previousAnswer);

    /**
     * The sessions that fork after the turn just answered, each starting from this session's
     * history and {@code answer}; empty when none does. Called once per answered turn, before
     * {@link #nextTurn}.
     */
    default List<Session> forks(String answer) {
        return List.of();
    }
}
