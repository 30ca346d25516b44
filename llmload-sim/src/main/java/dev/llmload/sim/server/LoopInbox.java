package dev.llmload.sim.server;

import io.netty.channel.EventLoop;
import io.netty.util.internal.PlatformDependent;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Carries the engine's callbacks to the streams of one event loop in slices.
 *
 * <p>Why: an engine step ends with a token for each of up to thousands of running requests. With
 * one event-loop task per token, the simulator's HTTP side, not its engine, limited how many
 * tokens per second it could stream (docs/performance.md). Here the engine thread only appends to
 * a lock-free queue and wakes the loop when no slice is pending; the loop runs up to
 * {@link #SLICE} callbacks per task and posts itself again for the rest, so that between slices
 * it reads new requests and serves {@code /metrics} (see {@link SimServer}'s task quantum).
 *
 * <p>Threading: {@link #post} may be called from any thread (the engine's), {@link #awaitDrained}
 * from any but the loop's; the slices run on {@link #loop}.
 */
final class LoopInbox {

    /** About a millisecond of token writes: the longest a new request waits to be read. */
    private static final int SLICE = 128;

    private final EventLoop loop;
    private final Queue<Runnable> queue = PlatformDependent.newMpscQueue();
    private final AtomicBoolean sliceScheduled = new AtomicBoolean();
    private final Runnable slice = this::runSlice;

    LoopInbox(EventLoop loop) {
        this.loop = loop;
    }

    /** Runs {@code task} on the loop, after every task posted before it. Any thread. */
    void post(Runnable task) {
        queue.offer(task);
        if (!sliceScheduled.get() && sliceScheduled.compareAndSet(false, true)) {
            loop.execute(slice);
        }
    }

    /**
     * Waits, at most {@code timeout}, until the loop has run every task posted before this call.
     * Not on the loop itself.
     */
    void awaitDrained(Duration timeout) {
        CountDownLatch ran = new CountDownLatch(1);
        post(ran::countDown);
        try {
            ran.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void runSlice() {
        // Cleared before polling: a post that lands after the last poll schedules the next slice.
        sliceScheduled.set(false);
        try {
            Runnable task;
            for (int n = 0; n < SLICE && (task = queue.poll()) != null; n++) {
                task.run();
            }
        } finally {
            // Left over by the slice bound or by a task that threw: nothing else would pick it up.
            if (!queue.isEmpty() && sliceScheduled.compareAndSet(false, true)) {
                loop.execute(slice);
            }
        }
    }
}
