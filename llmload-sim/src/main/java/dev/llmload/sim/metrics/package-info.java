/**
 * The simulator's server-side metrics under vLLM's names and their Prometheus text rendering.
 * Observed on the engine's thread; each histogram is guarded by its own lock for the
 * {@code /metrics} reader on an event loop.
 */
package dev.llmload.sim.metrics;
