/**
 * What to send: the dialect-independent request, chat messages, content hashes of the data and
 * the one-line error for bad data. The subpackages make requests from synthetic lengths,
 * datasets, traces and sessions.
 *
 * <p>Threads: a request source is used by one thread at a time, {@code llmload-prepare} during a
 * run (the session dispatcher's thread for sessions).
 */
package dev.llmload.workload;
