package dev.llmload.sim.metrics;

import java.util.Arrays;

/**
 * A Prometheus histogram with fixed upper bounds (an implicit +Inf bucket last). Not thread-safe:
 * {@link SimMetrics} guards every instance with its own lock.
 */
final class Histogram {

    /** vLLM's {@code time_to_first_token_seconds} buckets. */
    static final double[] TTFT_BUCKETS = {
        0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0,
        160.0, 640.0, 2560.0
    };
    /** vLLM's {@code inter_token_latency_seconds} and {@code request_time_per_output_token_seconds} buckets. */
    static final double[] ITL_BUCKETS = {
        0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0
    };
    /** vLLM's buckets of the per-request latencies: e2e, queue, prefill, decode. */
    static final double[] REQUEST_LATENCY_BUCKETS = {
        0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0,
        1920.0, 7680.0
    };

    /** Fine buckets for the simulator's own delays, which should stay well under a millisecond. */
    static final double[] WRITE_DELAY_BUCKETS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0
    };

    private final double[] bounds;
    private final long[] counts;
    private double sum;

    Histogram(double[] bounds) {
        this.bounds = bounds;
        this.counts = new long[bounds.length + 1];
    }

    void observe(double value) {
        int i = Arrays.binarySearch(bounds, value);
        // An exact hit belongs to that bucket (le is inclusive); otherwise the insertion point.
        counts[i >= 0 ? i : -i - 1]++;
        sum += value;
    }

    double[] bounds() {
        return bounds;
    }

    /** Cumulative counts per bucket, the last being +Inf (= the total count). */
    long[] cumulativeCounts() {
        long[] cumulative = new long[counts.length];
        long running = 0;
        for (int i = 0; i < counts.length; i++) {
            running += counts[i];
            cumulative[i] = running;
        }
        return cumulative;
    }

    double sum() {
        return sum;
    }
}
