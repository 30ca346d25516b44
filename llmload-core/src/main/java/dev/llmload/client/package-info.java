/**
 * What llmload itself cost while it measured, so every run can say how far its own numbers can be
 * trusted: each event loop's lateness, the process's CPU and the collector's pauses, recorded
 * during the run ({@link dev.llmload.client.ClientMonitor}) and summarised over its measured phase
 * ({@link dev.llmload.client.ClientCost}, report.json's {@code client} section and the
 * {@code client_saturated} note); and what keeps llmload's own background work out of the event
 * loops' way ({@link dev.llmload.client.SchedulingClass}).
 *
 * <p>Threads: each {@code LoopLagProbe} lives on its own event loop and is read only through a
 * task on that loop, but for the most lag since last asked, an atomic the loop raises and the live
 * view's thread takes ({@link dev.llmload.client.ClientMonitor#takeMaxLoopLagNanos}); {@code llmload-client-monitor} owns the CPU samples; the JVM's notification
 * thread only appends to a concurrent queue of collector pauses. {@link dev.llmload.client.ClientCost}
 * is pure arithmetic.
 */
package dev.llmload.client;
