package dev.llmload.client;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures how late one event loop runs: a task due every period on the loop's own timer records,
 * for each due instant that has passed, how long after it the loop got round to it. That is how
 * long a read arriving at that instant could have waited to be stamped, since the loop stamps reads
 * and runs its timers in the same turns. A loop busy or stalled for a stretch misses several due
 * instants; each one is recorded with its own wait (the stall's length, the stall's length less a
 * period, ...), so a long stall weighs by its length and not as one sample.
 *
 * <p>Owned by its event loop: every field is touched only there, but for {@link #maxLagNanos},
 * which the loop raises and one watcher of the live view ({@code llmload-live}) takes and resets
 * through {@link #takeMaxLagNanos}, without a lock; {@link #stop} hands the samples over through a
 * task on the loop. One tick costs a clock read, a timer entry and an uncontended compare-and-set.
 */
final class LoopLagProbe implements Runnable {

    private final EventLoop loop;
    private final long periodNanos;
    private final long originNanos;
    private long dueNanos;
    private boolean stopped;
    private ScheduledFuture<?> next;
    /** Due instants, ms from the origin, and how late each was served, µs. */
    private int[] dueMs = new int[1024];

    private int[] lagMicros = new int[1024];
    private int count;
    /** The most lag since the watcher last took it, ns: written by the loop, taken by the watcher. */
    private final AtomicLong maxLagNanos = new AtomicLong();

    private LoopLagProbe(EventLoop loop, long periodNanos, long originNanos) {
        this.loop = loop;
        this.periodNanos = periodNanos;
        this.originNanos = originNanos;
    }

    /** Starts a probe on {@code loop}; its first instant is due one period from now. */
    static LoopLagProbe start(EventLoop loop, long periodNanos, long originNanos) {
        LoopLagProbe probe = new LoopLagProbe(loop, periodNanos, originNanos);
        loop.execute(() -> {
            probe.dueNanos = System.nanoTime() + periodNanos;
            probe.next = loop.schedule(probe, periodNanos, TimeUnit.NANOSECONDS);
        });
        return probe;
    }

    @Override
    public void run() {
        if (stopped) {
            return;
        }
        long now = System.nanoTime();
        while (dueNanos <= now) {
            record(dueNanos, now - dueNanos);
            dueNanos += periodNanos;
        }
        next = loop.schedule(this, dueNanos - now, TimeUnit.NANOSECONDS);
    }

    private void record(long due, long lagNanos) {
        if (count == dueMs.length) {
            dueMs = Arrays.copyOf(dueMs, count * 2);
            lagMicros = Arrays.copyOf(lagMicros, count * 2);
        }
        dueMs[count] = (int) Math.min(Integer.MAX_VALUE, (due - originNanos) / 1_000_000);
        lagMicros[count] = (int) Math.min(Integer.MAX_VALUE, lagNanos / 1_000);
        count++;
        maxLagNanos.accumulateAndGet(lagNanos, Math::max);
    }

    /** The most lag recorded since the last call (0 before the first tick), reset to 0. One caller thread. */
    long takeMaxLagNanos() {
        return maxLagNanos.getAndSet(0);
    }

    /**
     * Stops the probe on its loop and returns its samples: element 0 the due instants (ms from the
     * origin), element 1 their lags (µs). Empty when the loop has already shut down.
     */
    Future<int[][]> stop() {
        return loop.submit(() -> {
            stopped = true;
            if (next != null) {
                next.cancel(false);
            }
            return new int[][] {Arrays.copyOf(dueMs, count), Arrays.copyOf(lagMicros, count)};
        });
    }
}
