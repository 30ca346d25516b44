package dev.llmload.telemetry;

import dev.llmload.telemetry.engine.ServerSignals;

/**
 * One successful scrape of the server's metrics.
 *
 * @param nanos     {@code System.nanoTime()} when the response arrived
 * @param signals   what the engine profile read from it
 * @param simulator what llmload's simulator said of its own delays; {@code null} for any other server
 */
public record ServerReading(long nanos, ServerSignals signals, SimulatorSignals simulator) {}
