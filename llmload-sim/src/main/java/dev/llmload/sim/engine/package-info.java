/**
 * The simulated engine's contract and its simplest implementation: requests in, tokens out over
 * time to a {@code TokenSink}, snapshots for {@code /metrics}.
 *
 * <p>Threads: {@code submit}, {@code cancel}, {@code pause} and {@code snapshot} are safe from any
 * thread; an engine's own thread ({@code sim-fixed-engine} for the fixed-latency engine) owns its
 * state and calls every sink.
 */
package dev.llmload.sim.engine;
