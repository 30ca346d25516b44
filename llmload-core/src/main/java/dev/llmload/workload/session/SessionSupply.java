package dev.llmload.workload.session;

/**
 * Where a session run's sessions come from: synthetic chat sessions ({@link SessionSource}), synthetic
 * agent sessions ({@link AgenticSessions}) or a
 * session trace's root sessions ({@link TraceSessions}). {@link #nextSession} is called from one
 * thread; sessions may then be driven from others.
 */
public sealed interface SessionSupply permits AgenticSessions, SessionSource, TraceSessions {

    /** The next session to start; a trace has as many as its root sessions. */
    Session nextSession();

    /** Sessions the dispatcher keeps in flight at once in an open loop ({@link Integer#MAX_VALUE}: no bound). */
    int maxActiveSessions();

    /** One line for the report. */
    String describe();

    /** SHA-256 that is equal for runs that sent comparable sessions. */
    String contentHash();
}
