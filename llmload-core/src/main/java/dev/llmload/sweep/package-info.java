/**
 * {@code llmload sweep}: a series of runs over load values (fixed, automatic, or a capacity
 * search against percentile SLOs), the knee where throughput stops growing while latency climbs, and {@code sweep.json}. The
 * search and knee rules are pure; {@code SweepRunner} runs each point as a {@code run} on the
 * caller's thread, one after the other.
 */
package dev.llmload.sweep;
