package dev.llmload.run;

import dev.llmload.stats.Statistics;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures, while a timing test runs, how late this host wakes a thread that parks for 1 ms. A
 * host whose own p99 oversleep is above a test's budget (a shared machine under load, a GC pause)
 * cannot show whether the client keeps that budget, so such a test is skipped there, naming the
 * figure, instead of failing for the host's sake. The probe owns its thread and its samples.
 */
final class HostTimerJitter implements AutoCloseable {

    private static final long PERIOD_NANOS = 1_000_000;
    private final double[] oversleepMs = new double[60_000];
    private final Thread thread;
    private volatile boolean stopped;
    private int count;

    HostTimerJitter() {
        thread = new Thread(this::probe, "host-timer-jitter");
        thread.setDaemon(true);
        thread.start();
    }

    private void probe() {
        while (!stopped && count < oversleepMs.length) {
            long start = System.nanoTime();
            LockSupport.parkNanos(PERIOD_NANOS);
            oversleepMs[count++] = Math.max(0, System.nanoTime() - start - PERIOD_NANOS) / 1e6;
        }
    }

    /** Stops the probe and returns the p99 oversleep in ms. */
    double p99Ms() throws InterruptedException {
        stopped = true;
        thread.join();
        return Statistics.summarize(java.util.Arrays.copyOf(oversleepMs, count)).p99();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join();
    }
}
