package dev.llmload.schedule;

import java.time.Duration;

/** One step of {@link ConcurrencyPlan.Steps}: keep this many requests in flight for this long (0 is a pause). */
public record ConcurrencyStage(int concurrency, Duration duration) {

    public ConcurrencyStage {
        if (concurrency < 0) {
            throw new IllegalArgumentException("concurrency must not be negative: " + concurrency);
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be above 0: " + duration);
        }
    }
}
