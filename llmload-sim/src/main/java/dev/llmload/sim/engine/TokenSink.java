package dev.llmload.sim.engine;

/**
 * Receives the life of one accepted request from an {@link Engine}. Every method is called on the
 * engine's own thread, in order; an implementation that writes to a socket hands the work over to
 * that socket's event loop.
 */
public interface TokenSink {

    /** The request entered the running batch for the first time (after any queueing). */
    void scheduled(long nanos);

    /**
     * The request entered the running batch for the first time, its first {@code cachedPromptTokens}
     * prompt tokens found in the prefix cache: what an engine with a prefix cache calls instead of
     * {@link #scheduled(long)}, which a sink that does not care about the cache gets.
     */
    default void scheduled(long nanos, int cachedPromptTokens) {
        scheduled(nanos);
    }

    /** {@code count} (at least 1) new tokens were generated at {@code nanos}. */
    void tokens(int count, long nanos);

    /** The request ended; no call follows. */
    void finished(FinishReason reason, long nanos);
}
