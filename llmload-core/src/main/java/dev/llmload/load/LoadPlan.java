package dev.llmload.load;

/** How requests are released: a fixed number in flight (closed loop) or a precomputed schedule (open loop). */
public sealed interface LoadPlan {

    /** N requests in flight at all times: each completion starts the next request. */
    record ClosedLoop(int concurrency) implements LoadPlan {
        public ClosedLoop {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
            }
        }
    }

    /**
     * Requests sent at precomputed offsets from the run's start, whatever the server does.
     *
     * @param offsetsNanos   intended send offsets, ascending; their count bounds the run
     * @param maxConcurrency a gate on requests in flight (0 = none); a request that finds the gate
     *                       full waits for a free slot, and the wait shows as client queue time
     */
    record OpenLoop(long[] offsetsNanos, int maxConcurrency) implements LoadPlan {}
}
