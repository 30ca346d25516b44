/**
 * JMH benchmarks of the client's hot paths and the load driver of the simulator's capacity
 * benchmark; results and commands are in docs/performance.md. Not part of the product: nothing
 * imports this package.
 *
 * <p>Threads: JMH's own; {@code StreamDriver} runs its connections on its own event loops.
 */
package dev.llmload.bench;
