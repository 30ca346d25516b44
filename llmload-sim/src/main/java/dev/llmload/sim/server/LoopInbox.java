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
 * a lock-free queue and wakes the loop when no slice is pending; the loop runs callbacks for
 * {@link #SLICE_NANOS} at most per task and posts itself again for the rest, so that between
 * slices it reads new requests (and stamps their arrival) and serves {@code /metrics} (see
 * {@link SimServer}'s task quantum).
 *
 * <p>Why a time and not a count: a token write to a loopback socket costs 5 µs on a quiet core
 * and 40 µs or more where the client shares it (the kernel delivers the bytes to the reader in the
 * writer's system call). A slice of 128 callbacks, meant as a millisecond, took 1 to 3 ms at 64
 * streams, and a request that came meanwhile was stamped that much after its first packet (the
 * wire's truth, docs/performance.md). The clock costs some 20 ns a reading, nothing beside a write.
 *
 * <p>Threading: {@link #post} may be called from any thread (the engine's), {@link #awaitDrained}
 * from any but the loop's; the slices run on {@link #loop}.
 */
final class LoopInbox {

    /**
     * The longest a slice runs callbacks (it runs one at least): with the loop's task quantum, how
     * long a new request waits to be read while tokens stream.
     */
    static final long SLICE_NANOS = 200_000;

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
            long endNanos = System.nanoTime() + SLICE_NANOS;
            Runnable task;
            while ((task = queue.poll()) != null) {
                task.run();
                if (System.nanoTime() - endNanos >= 0) {
                    break;
                }
            }
        } finally {
            // Left over by the slice bound or by a task that threw: nothing else would pick it up.
            if (!queue.isEmpty() && sliceScheduled.compareAndSet(false, true)) {
                loop.execute(slice);
            }
        }
    }
}
