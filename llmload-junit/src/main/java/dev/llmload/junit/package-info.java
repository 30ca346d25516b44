/**
 * A latency gate for a project's own tests ({@code LatencyGate}): a load run through
 * {@code LlmLoad.run} against a URL or an embedded simulator, then a check of its results against
 * the test's limits that fails with an {@code AssertionFailedError} naming each metric, its limit,
 * the measured value and the run directory.
 *
 * <p>Threads: {@code LatencyGate.check} runs on the test's thread, which becomes the run's
 * dispatcher; the embedded simulator it starts (with its own {@code sim-io-*} and engine threads)
 * is stopped before {@code check} returns.
 */
package dev.llmload.junit;
