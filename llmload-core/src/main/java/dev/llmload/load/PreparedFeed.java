package dev.llmload.load;

import dev.llmload.protocol.OpenAiCodec;
import dev.llmload.workload.source.RequestSource;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Makes and encodes requests ahead of the dispatcher on its own thread ({@code llmload-prepare}),
 * which alone touches the request source, so building a long prompt never delays a send. The
 * iterator side is used by whoever dispatches (under the dispatcher's gate lock); it blocks only
 * when preparation has fallen more than {@link #AHEAD} requests behind, which it should not.
 */
public final class PreparedFeed implements Iterator<PreparedRequest>, AutoCloseable {

    static final int AHEAD = 512;

    /** Marks the end of the source (or a failure, when {@link #failure} is set). */
    private static final PreparedRequest END = new PreparedRequest(null, new byte[0]);

    private final BlockingQueue<PreparedRequest> queue = new ArrayBlockingQueue<>(AHEAD);
    private final Thread thread;
    private volatile RuntimeException failure;
    private PreparedRequest head;
    private boolean ended;

    /** @param limit the most requests to prepare, or -1 for as many as the source gives */
    public PreparedFeed(RequestSource source, OpenAiCodec codec, long limit) {
        thread = new Thread(() -> produce(source, codec, limit), "llmload-prepare");
        thread.setDaemon(true);
        thread.start();
    }

    private void produce(RequestSource source, OpenAiCodec codec, long limit) {
        try {
            for (long i = 0; (limit < 0 || i < limit) && source.hasNext(); i++) {
                var spec = source.next();
                queue.put(new PreparedRequest(spec, codec.encode(spec)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            queue.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until preparation is {@link #AHEAD} requests ahead or has prepared them all, so the
     * run's first sends do not wait for prompts being made (at most {@code timeout}).
     */
    public void awaitReady(java.time.Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (queue.remainingCapacity() > 0 && thread.isAlive() && System.nanoTime() < until) {
            Thread.sleep(2);
        }
    }

    @Override
    public boolean hasNext() {
        if (head != null) {
            return true;
        }
        if (ended) {
            return false;
        }
        try {
            PreparedRequest next = queue.take();
            if (next == END) {
                ended = true;
                if (failure != null) {
                    throw failure;
                }
                return false;
            }
            head = next;
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = true;
            return false;
        }
    }

    @Override
    public PreparedRequest next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        PreparedRequest next = head;
        head = null;
        return next;
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
