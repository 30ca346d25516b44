package dev.llmload.report;

import dev.llmload.record.RequestRecord;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Hands records to a consumer on a thread of its own ({@code llmload-derive}), in the order they
 * were given, in batches: a share of a big run's derivation done beside the caller's. The
 * consumer's state is owned by that thread until {@link #close} returns, which waits for it to
 * take every record; then the caller reads it. Anything the consumer throws is thrown by the
 * next {@link #accept} or by {@link #close}. Used by one caller thread.
 */
final class OrderedHandOff implements Consumer<RequestRecord>, AutoCloseable {

    private static final int BATCH = 256;
    private static final RequestRecord[] END = new RequestRecord[0];

    private final BlockingQueue<RequestRecord[]> queue = new ArrayBlockingQueue<>(64);
    private final Thread thread;
    private volatile Throwable failure;
    private RequestRecord[] batch = new RequestRecord[BATCH];
    private int size;

    OrderedHandOff(Consumer<RequestRecord> consumer) {
        thread = new Thread(() -> {
            try {
                for (RequestRecord[] records = queue.take(); records != END; records = queue.take()) {
                    for (RequestRecord record : records) {
                        consumer.accept(record);
                    }
                }
            } catch (Throwable e) {
                failure = e;
            }
        }, "llmload-derive");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void accept(RequestRecord record) {
        batch[size++] = record;
        if (size == BATCH) {
            put(batch);
            batch = new RequestRecord[BATCH];
            size = 0;
        }
    }

    /** Waits until the consumer has taken every record. */
    @Override
    public void close() {
        if (size > 0) {
            put(Arrays.copyOf(batch, size));
            size = 0;
        }
        put(END);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deriving the report", e);
        }
        rethrow();
    }

    private void put(RequestRecord[] records) {
        try {
            while (!queue.offer(records, 100, TimeUnit.MILLISECONDS)) {
                rethrow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deriving the report", e);
        }
        rethrow();
    }

    private void rethrow() {
        Throwable e = failure;
        if (e instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (e instanceof Error error) {
            throw error;
        }
    }
}
