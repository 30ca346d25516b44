/**
 * Summary statistics computed the way vLLM's and AIPerf's benchmarks compute them, and the bounded
 * accumulator that keeps them within a fixed memory budget. Pure arithmetic; an accumulator
 * belongs to the one thread that feeds it.
 */
package dev.llmload.stats;
