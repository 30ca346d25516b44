/**
 * The continuous-batching engine: a scheduler with a paged KV cache and prefix caching in the
 * manner of vLLM V1, with no notion of real time ({@code BatchScheduler}), driven in real time by
 * {@code BatchingEngine}, and the step-time models of the modelled hardware.
 *
 * <p>Threads: {@code llmload-sim-engine} owns the scheduler, the block pool and every sequence,
 * and calls every sink; other threads only enqueue commands.
 */
package dev.llmload.sim.engine.batching;
