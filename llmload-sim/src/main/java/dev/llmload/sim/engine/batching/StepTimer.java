package dev.llmload.sim.engine.batching;

import java.util.SplittableRandom;

/**
 * Turns a step's shape into its duration: the step-time model, divided by the speed-up, times an
 * optional log-normal jitter factor with mean 1 (seeded, so a run repeats). Owned by the
 * {@link BatchScheduler}'s thread.
 */
final class StepTimer {

    private final StepTimeModel model;
    private final double nanosPerModelMilli;
    private final double jitter;
    private final SplittableRandom random;

    StepTimer(StepTimeModel model, double speedup, double jitter, long seed) {
        this.model = model;
        this.nanosPerModelMilli = 1e6 / speedup;
        this.jitter = jitter;
        this.random = new SplittableRandom(seed);
    }

    /** Duration of a non-empty step in nanoseconds, at least 1 so virtual time always advances. */
    long nanos(StepShape step) {
        double ms = model.stepMillis(step);
        if (jitter > 0) {
            ms *= Math.exp(jitter * random.nextGaussian() - jitter * jitter / 2);
        }
        return Math.max(1, Math.round(ms * nanosPerModelMilli));
    }
}
