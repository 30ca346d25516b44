/**
 * One benchmark run from its configuration to a run directory ({@code BenchmarkRun}): opens the
 * data, asks the server what it is, computes the schedule, starts telemetry, sends the load
 * through {@code load}, and writes the report through {@code report}.
 *
 * <p>Threads: {@code BenchmarkRun.execute} runs on the caller's thread, which becomes the
 * dispatcher; {@code stop} may be called from any thread (a signal handler).
 */
package dev.llmload.run;
