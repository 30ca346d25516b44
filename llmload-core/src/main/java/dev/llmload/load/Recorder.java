package dev.llmload.load;

import dev.llmload.protocol.Usage;
import dev.llmload.record.Journal;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TokenSource;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * Turns finished requests into {@link RequestRecord}s and journals them, on its own thread
 * ({@code llmload-recorder}), which owns the journal and the list of records.
 *
 * <p>A finished request is on disk before the process can die, whatever its response holds. Local
 * token counting (for a server that sends no usage) is cheap for ordinary answers but not for
 * every text: one event of a million characters without a space takes the tokenizer seconds. So
 * the recorder counts a response itself only while its text is at most
 * {@link #INLINE_COUNT_MAX_CHARS}; a longer one is counted on {@code llmload-token-counter}, which
 * owns nothing but the text it is counting and hands the finished record back, and every other
 * request's line is written meanwhile. Lines are therefore in the order their records became
 * whole, and the records list keeps that order, so a report rebuilt from the journal equals the
 * original.
 */
final class Recorder implements Consumer<FinishedRequest> {

    /**
     * The most characters of token text the recorder counts on its own thread: at most a few
     * milliseconds of the tokenizer even for text made to be slow (a 16 Ki-character word), well
     * under a millisecond for prose.
     */
    static final int INLINE_COUNT_MAX_CHARS = 16 * 1024;

    /** What the recorder thread takes from its queue. */
    private sealed interface Item {}

    private record Finished(FinishedRequest request) implements Item {}

    private record Counted(RequestRecord record) implements Item {}

    private record End() implements Item {}

    private final LinkedBlockingQueue<Item> queue = new LinkedBlockingQueue<>();
    /** Requests whose text is too long to count on the recorder thread, in the order they finished. */
    private final LinkedBlockingQueue<FinishedRequest> toCount = new LinkedBlockingQueue<>();
    private final Journal journal;
    private final Tokenizer tokenizer;
    private final long runStartNanos;
    private final List<RequestRecord> records = new ArrayList<>();
    private final Consumer<RequestRecord> listener;
    private final Runnable onWriteFailure;
    private final Thread thread;
    private final Thread counter;
    private volatile IOException writeFailure;

    /**
     * @param listener       hears every record on the recorder thread (live progress); may be a no-op
     * @param onWriteFailure runs once, on the recorder thread, when the journal cannot be written:
     *                       the run is to stop at once, since nothing more would be on disk
     */
    public Recorder(Journal journal, Tokenizer tokenizer, long runStartNanos, Consumer<RequestRecord> listener,
                    Runnable onWriteFailure) {
        this.journal = journal;
        this.onWriteFailure = onWriteFailure;
        this.tokenizer = tokenizer;
        this.runStartNanos = runStartNanos;
        this.listener = listener;
        this.thread = new Thread(this::drain, "llmload-recorder");
        thread.setDaemon(true);
        this.counter = new Thread(this::count, "llmload-token-counter");
        counter.setDaemon(true);
        counter.start();
        thread.start();
    }

    /** Hands a finished request over; safe from any thread, never blocks. */
    @Override
    public void accept(FinishedRequest finished) {
        queue.add(new Finished(finished));
    }

    private void drain() {
        int counting = 0;
        boolean ending = false;
        try {
            while (!ending || counting > 0) {
                Item next = queue.take();
                switch (next) {
                    case End end -> ending = true;
                    case Counted counted -> {
                        counting--;
                        write(counted.record());
                    }
                    case Finished finished -> {
                        if (needsLongCount(finished.request())) {
                            counting++;
                            toCount.add(finished.request());
                        } else {
                            write(toRecord(finished.request()));
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            counter.interrupt();
        }
    }

    /** On {@code llmload-token-counter}: counts long texts one by one and hands each record back. */
    private void count() {
        try {
            while (true) {
                queue.add(new Counted(toRecord(toCount.take())));
            }
        } catch (InterruptedException e) {
            // The recorder has written everything: nothing is left to count.
        }
    }

    private void write(RequestRecord record) {
        if (writeFailure == null) {
            try {
                record = journal.append(record);
            } catch (IOException e) {
                writeFailure = e;
                onWriteFailure.run();
            }
        }
        records.add(record);
        listener.accept(record);
    }

    /**
     * Whether making this request's record means running the tokenizer over more text than the
     * recorder counts itself; the cases follow {@link #toRecord}.
     */
    private static boolean needsLongCount(FinishedRequest f) {
        List<String> texts = f.tokenEventTexts();
        int[] given = f.serverTokenCounts();
        Usage usage = f.usage();
        if (given == null && usage != null && usage.completionTokens() == texts.size()) {
            return false;
        }
        long chars = 0;
        for (int i = 0; i < texts.size(); i++) {
            if (given == null || given[i] < 1) {
                chars += texts.get(i).length();
            }
        }
        return chars > INLINE_COUNT_MAX_CHARS;
    }

    RequestRecord toRecord(FinishedRequest f) {
        int events = f.timings().tokenEventNanos().length;
        int[] counts = new int[events];
        Usage usage = f.usage();
        boolean serverOutput = usage != null && usage.completionTokens() >= 0;
        int[] given = f.serverTokenCounts();
        if (given != null) {
            // The server counted each event's tokens (SGLang): its counts stand; the tokenizer fills any gap.
            for (int i = 0; i < events; i++) {
                counts[i] = given[i] >= 1 ? given[i] : Math.max(1, tokenizer.count(f.tokenEventTexts().get(i)));
            }
        } else if (serverOutput && usage.completionTokens() == events) {
            // One token per event, as the server's own count confirms.
            java.util.Arrays.fill(counts, 1);
        } else {
            for (int i = 0; i < events; i++) {
                counts[i] = Math.max(1, tokenizer.count(f.tokenEventTexts().get(i)));
            }
        }
        int localOutput = 0;
        for (int count : counts) {
            localOutput += count;
        }
        boolean serverInput = usage != null && usage.promptTokens() >= 0;
        return new RequestRecord(
                f.request().spec().index(),
                f.requestId(),
                f.warmup(),
                f.timings().relativeTo(runStartNanos),
                counts,
                f.httpStatus(),
                f.outcome(),
                serverInput ? usage.promptTokens() : f.request().spec().inputTokens(),
                serverInput,
                serverOutput ? usage.completionTokens() : localOutput,
                serverOutput ? TokenSource.SERVER : TokenSource.LOCAL_TOKENIZER,
                f.finishReason(),
                f.streamed(),
                f.retryAfter(),
                f.request().spec().session(),
                f.serverTimings());
    }

    /**
     * Waits until every request handed over so far is journaled, then returns all records.
     *
     * @throws IOException when the journal could not be written: its one-line reason; the file
     *                     holds the whole lines written before
     */
    public List<RequestRecord> finish() throws IOException, InterruptedException {
        queue.add(new End());
        thread.join();
        if (writeFailure != null) {
            throw writeFailure;
        }
        return List.copyOf(records);
    }
}
