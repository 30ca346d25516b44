package dev.llmload.load;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How a sender's run ends, the same for every {@link Sender}: a stop from any thread ends the
 * sending and wakes the dispatcher thread; requests in flight may then finish until the grace
 * period after the stop, or, without a stop, after the deadline; whatever is left then is
 * cancelled, once, and recorded as such. The {@link Dispatcher} waits that out in {@link #drain};
 * the {@link SessionDispatcher}, whose thread goes on handling completions meanwhile, asks
 * {@link #graceEndNanos} and {@link #cancelOnce} from its own loop.
 *
 * <p>Threads: {@link #stop}, {@link #stopping} and {@link #wakeDispatcher} any thread (a signal
 * handler, the recorder, an event loop); the stop's fields are volatile. {@link #enter},
 * {@link #cancelOnce}, {@link #cancelled} and {@link #drain} only the dispatcher thread, which
 * owns whether the run was cancelled.
 */
final class RunEnd {

    /** How often {@link #drain} looks again at a grace period that a stop may have moved. */
    private static final long DRAIN_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Nothing is sent at or after it; without a stop the grace period runs from it. */
    private final long deadlineNanos;

    private volatile boolean stopping;
    /** When the first stop came; 0 before one. */
    private volatile long stopRequestedNanos;

    private volatile Thread dispatcherThread;
    private final BooleanSupplier sending = () -> !stopping;
    /** Owned by the dispatcher thread: what was left at the end of the grace period is cancelled. */
    private boolean cancelled;

    /** @param deadlineNanos nothing is sent at or after it; {@link Long#MAX_VALUE} for no deadline */
    RunEnd(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
    }

    /** On the thread that walks the load, first thing: it is the dispatcher thread that a stop wakes. */
    void enter() {
        dispatcherThread = Thread.currentThread();
    }

    /** Ends the sending and wakes the dispatcher thread. Any thread; a second stop keeps the first's time. */
    void stop() {
        if (stopRequestedNanos == 0) {
            stopRequestedNanos = System.nanoTime();
        }
        stopping = true;
        wakeDispatcher();
    }

    /** Whether a stop came. Any thread. */
    boolean stopping() {
        return stopping;
    }

    /** True until a stop comes: what the dispatcher thread's waits for a send time go on while. */
    BooleanSupplier sending() {
        return sending;
    }

    /** Unparks the dispatcher thread, from any other thread, so that it looks at what changed. */
    void wakeDispatcher() {
        Thread thread = dispatcherThread;
        if (thread != null && thread != Thread.currentThread()) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Until when requests in flight may finish: {@code grace} after the stop, or after the
     * deadline when no stop came; {@link Long#MAX_VALUE} with neither.
     */
    long graceEndNanos(Duration grace) {
        long stoppedAt = stopRequestedNanos;
        long base = stoppedAt != 0 ? stoppedAt : deadlineNanos;
        return base == Long.MAX_VALUE ? Long.MAX_VALUE : base + grace.toNanos();
    }

    /** Runs {@code cancel} unless the run was cancelled before; returns whether it ran. Dispatcher thread. */
    boolean cancelOnce(Runnable cancel) {
        if (cancelled) {
            return false;
        }
        cancelled = true;
        cancel.run();
        return true;
    }

    /** Whether {@link #cancelOnce} ran. Dispatcher thread. */
    boolean cancelled() {
        return cancelled;
    }

    /**
     * On the dispatcher thread once nothing more will be sent: waits for {@code allFinished} until
     * the grace period ends (looking again at least every 100 ms, as a stop moves it), then
     * cancels what is left ({@code cancel}) and waits for that to be recorded.
     */
    void drain(CountDownLatch allFinished, Duration grace, Runnable cancel) throws InterruptedException {
        while (true) {
            long limit = graceEndNanos(grace);
            long slice = DRAIN_CHECK_NANOS;
            if (limit != Long.MAX_VALUE) {
                long remaining = limit - System.nanoTime();
                if (remaining <= 0) {
                    cancelOnce(cancel);
                    allFinished.await();
                    return;
                }
                slice = Math.min(slice, remaining);
            }
            if (allFinished.await(slice, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }
}
