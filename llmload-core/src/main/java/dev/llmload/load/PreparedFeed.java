package dev.llmload.load;

import dev.llmload.protocol.Dialect;
import dev.llmload.workload.source.RequestSource;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes and encodes requests ahead of the dispatcher on its own thread ({@code llmload-prepare}),
 * which alone touches the request source, so building a long prompt never delays a send. Up to
 * {@link #AHEAD} requests wait ready, or as many as the load starts with where that is more.
 *
 * <p>Taking a request never waits: {@link #poll} answers at once, from a lock-free queue, so an
 * event loop that tops up a closed loop as a request completes never waits for preparation, nor
 * for a lock the preparation thread holds. A thread that may wait (the dispatcher's, never an
 * event loop) calls {@link #awaitAvailable} when a poll found nothing, then polls again.
 */
final class PreparedFeed implements AutoCloseable {

    static final int AHEAD = 512;

    /** How many requests may wait ready; set before the thread starts, read by it. */
    private volatile int ahead = AHEAD;

    private final ConcurrentLinkedQueue<PreparedRequest> ready = new ConcurrentLinkedQueue<>();
    /** How many requests are in {@link #ready}; preparation pauses while it is {@link #ahead}. */
    private final AtomicInteger readyCount = new AtomicInteger();

    private final Thread thread;
    /** Set once preparation has ended (the source ran out, the limit was reached, or it failed), after its last request was queued. */
    private volatile boolean prepared;

    private volatile RuntimeException failure;
    /** The thread inside {@link #awaitAvailable}, woken when a request is queued. */
    private volatile Thread waiter;

    /**
     * A feed that prepares nothing until {@link #start}.
     *
     * @param limit the most requests to prepare, or -1 for as many as the source gives
     */
    public PreparedFeed(RequestSource source, Dialect dialect, long limit) {
        thread = new Thread(() -> produce(source, dialect, limit), "llmload-prepare");
        thread.setDaemon(true);
    }

    /**
     * Starts preparing, unless it has started. A run starts it as its test request goes out
     * ({@link LoadPhase#getReady}): making the first prompts reads the tokenizer's vocabulary, which
     * then costs nothing before the run's first request and, on a second core, nothing of the
     * wait for the load. For the thread that owns the feed.
     */
    public void start() {
        if (thread.getState() == Thread.State.NEW) {
            thread.start();
        }
    }

    /**
     * {@link #start}, keeping at least {@code firstSends} requests ready rather than {@link #AHEAD}:
     * the requests a load sends at once when its clock starts (a closed loop's concurrency), so that
     * none of them waits for its prompt to be made, and no prompt is made in the load's first
     * second on the cores its event loops measure on. Before the thread starts only.
     */
    public void start(int firstSends) {
        if (thread.getState() == Thread.State.NEW) {
            ahead = Math.max(AHEAD, firstSends);
        }
        start();
    }

    private void produce(RequestSource source, Dialect dialect, long limit) {
        try {
            for (long i = 0; (limit < 0 || i < limit) && source.hasNext(); i++) {
                var spec = source.next();
                PreparedRequest request = PreparedRequest.encode(spec, dialect);
                while (readyCount.get() >= ahead) {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        return;
                    }
                }
                ready.add(request);
                readyCount.incrementAndGet();
                wakeWaiter();
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            prepared = true;
            wakeWaiter();
        }
    }

    private void wakeWaiter() {
        Thread sleeper = waiter;
        if (sleeper != null) {
            LockSupport.unpark(sleeper);
        }
    }

    /**
     * Waits until preparation is as far ahead as it goes ({@link #AHEAD}, or the first sends given
     * to {@link #start(int)}) or has prepared them all, so the run's first sends do not wait for
     * prompts being made (at most {@code timeout}).
     */
    public void awaitReady(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (readyCount.get() < ahead && !prepared && System.nanoTime() < until) {
            Thread.sleep(2);
        }
    }

    /** The next prepared request, or null when none is ready now (see {@link #ended}). Never waits; any thread. */
    PreparedRequest poll() {
        PreparedRequest next = ready.poll();
        if (next != null && readyCount.getAndDecrement() == ahead) {
            // Preparation paused with the queue full; there is room again.
            LockSupport.unpark(thread);
        }
        return next;
    }

    /** True once preparation has ended and every request it made was taken. */
    boolean ended() {
        return prepared && ready.isEmpty();
    }

    /**
     * Waits until a request is ready, preparation has ended, {@code untilNanos} has come, or the
     * calling thread is unparked, whichever is first; callers poll again after it. For one
     * thread at a time, one that may wait: the dispatcher's, never an event loop.
     */
    void awaitAvailable(long untilNanos) {
        waiter = Thread.currentThread();
        long remaining = untilNanos - System.nanoTime();
        if (ready.isEmpty() && !prepared && remaining > 0) {
            LockSupport.parkNanos(this, remaining);
        }
        waiter = null;
    }

    /** Throws what stopped preparation early (bad data in a file), if anything did. */
    void throwIfFailed() {
        RuntimeException failed = failure;
        if (failed != null) {
            throw failed;
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
