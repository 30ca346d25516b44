package dev.llmload.telemetry;

import dev.llmload.telemetry.engine.ServerSignals;

/**
 * One successful scrape of the server's metrics.
 *
 * @param askedNanos {@code System.nanoTime()} just before the request was sent: the server's counters
 *                   are from after this instant (a reading that ends a window must be)
 * @param nanos      {@code System.nanoTime()} when the response arrived: the counters are from before
 *                   this instant (a reading that begins a window must be)
 * @param signals    what the engine profile read from it
 * @param simulator  what llmload's simulator said of its own delays; {@code null} for any other server
 */
public record ServerReading(long askedNanos, long nanos, ServerSignals signals, SimulatorSignals simulator) {}
