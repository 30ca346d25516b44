package dev.llmload.load;

import dev.llmload.schedule.ConcurrencyPlan;

/** How requests are released: a fixed number in flight (closed loop) or a precomputed schedule (open loop). */
public sealed interface LoadPlan {

    /**
     * A target number of requests in flight, fixed or changing over time: each completion starts
     * the next request while fewer than the target are in flight.
     */
    record ClosedLoop(ConcurrencyPlan concurrency) implements LoadPlan {}

    /**
     * Requests sent at precomputed offsets from the run's start, whatever the server does.
     *
     * @param offsetsNanos   intended send offsets, ascending; their count bounds the run
     * @param maxConcurrency a gate on requests in flight (0 = none); a request that finds the gate
     *                       full waits for a free slot, and the wait shows as client queue time
     */
    record OpenLoop(long[] offsetsNanos, int maxConcurrency) implements LoadPlan {}
}
