package dev.llmload.load;

import dev.llmload.client.SchedulingClass;
import dev.llmload.protocol.Usage;
import dev.llmload.record.Journal;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TextCounts;
import dev.llmload.record.TokenSource;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

/**
 * Turns finished requests into {@link RequestRecord}s and journals them. Its own thread
 * ({@code llmload-recorder}) owns the journal and writes each line as soon as the request's token
 * counts are known; it keeps no record once written (the run derives its report from the journal),
 * so a run's memory does not grow with its requests. Counting with the local tokenizer, which can take
 * seconds for one huge event, runs on the counting threads ({@code llmload-count-N}) instead, so
 * that it never holds back the lines of requests that finished after it; and a response with at
 * least {@link #PROVISIONAL_LINE_CHARS} characters to count gets a provisional line before its
 * counting starts ({@link Journal#appendPending}), so that it is on disk too while it is counted:
 * finished means on disk, whatever the responses hold. Whole lines are therefore in the order
 * their records were ready.
 *
 * <p>On Linux the recorder and counting threads run in the batch scheduling class
 * ({@link SchedulingClass#BATCH}): on a core shared with the event loops, a line is written a few
 * milliseconds later at most, and the loop that hands a request over goes on reading tokens.
 *
 * <p>A journal write that fails stops the run at once through {@code onWriteFailure}; no further
 * line is attempted, and {@link #finish} reports the failure.
 */
final class Recorder implements Consumer<FinishedRequest> {

    /** What the recorder thread takes: a request to record, a record counted elsewhere, or the end. */
    private sealed interface Entry {}

    private record Finished(FinishedRequest request) implements Entry {}

    private record Counted(RequestRecord record) implements Entry {}

    /** Queued by {@link #finish} after the last request: the recorder thread stops once everything before it is written. */
    private record End() implements Entry {}

    /**
     * Text to count from which a response is journaled provisionally first. The local tokenizer
     * counts in the order of a million characters a second (an 8 MiB event took about 7 s), so
     * below this a count ends within some tens of milliseconds, about as long as a line waits in
     * the recorder's queue on a busy host; the answers of ordinary requests (a few KB) need no
     * second line.
     */
    static final int PROVISIONAL_LINE_CHARS = 64 * 1024;

    private final LinkedBlockingQueue<Entry> queue = new LinkedBlockingQueue<>();
    private final Journal journal;
    private final Tokenizer tokenizer;
    private final long runStartNanos;
    private final Consumer<RequestRecord> listener;
    private final Runnable onWriteFailure;
    private final ExecutorService counting;
    private final Thread thread;
    private volatile IOException writeFailure;

    /**
     * @param listener       hears every record on the recorder thread (live progress); may be a no-op
     * @param onWriteFailure called once, on the recorder thread, when a journal write fails
     */
    Recorder(
            Journal journal,
            Tokenizer tokenizer,
            long runStartNanos,
            Consumer<RequestRecord> listener,
            Runnable onWriteFailure) {
        this.journal = journal;
        this.tokenizer = tokenizer;
        this.runStartNanos = runStartNanos;
        this.listener = listener;
        this.onWriteFailure = onWriteFailure;
        // At least two, so that one huge event never leaves the others waiting.
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        AtomicInteger named = new AtomicInteger();
        this.counting = Executors.newFixedThreadPool(threads, task -> {
            Thread counter = new Thread(task, "llmload-count-" + named.incrementAndGet());
            counter.setDaemon(true);
            return counter;
        });
        this.thread = new Thread(this::drain, "llmload-recorder");
        thread.setDaemon(true);
        thread.start();
    }

    /** Hands a finished request over; safe from any thread, never blocks. */
    @Override
    public void accept(FinishedRequest finished) {
        queue.add(new Finished(finished));
    }

    private void drain() {
        // Woken by an event loop for every finished request: in the batch class it waits for that
        // loop to sleep (or for the next tick) instead of taking the core from it there and then,
        // and the counting threads it starts are born there too.
        SchedulingClass.BATCH.enterCurrentThread();
        int beingCounted = 0;
        boolean ended = false;
        try {
            while (!ended || beingCounted > 0) {
                switch (queue.take()) {
                    case End end -> ended = true;
                    case Counted counted -> {
                        beingCounted--;
                        write(counted.record());
                    }
                    case Finished finished
                    when needsTokenizer(finished.request()) -> {
                        if (finished.request().tokenEventTexts().length() >= PROVISIONAL_LINE_CHARS) {
                            writePending(toRecord(finished.request(), event -> 1));
                        }
                        beingCounted++;
                        counting.execute(() -> queue.add(new Counted(toRecord(finished.request()))));
                    }
                    case Finished finished -> write(toRecord(finished.request()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            counting.shutdown();
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
        listener.accept(record);
    }

    /** The provisional line of a request still being counted; its record is not kept, the counted one is. */
    private void writePending(RequestRecord provisional) {
        if (writeFailure == null) {
            try {
                journal.appendPending(provisional);
            } catch (IOException e) {
                writeFailure = e;
                onWriteFailure.run();
            }
        }
    }

    /** Whether {@link #toRecord} will ask the local tokenizer: the server did not count every event itself. */
    private static boolean needsTokenizer(FinishedRequest f) {
        int events = f.timings().tokenEventNanos().length;
        int[] given = f.serverTokenCounts();
        if (given != null) {
            for (int i = 0; i < events; i++) {
                if (given[i] < 1) {
                    return true;
                }
            }
            return false;
        }
        Usage usage = f.usage();
        return events > 0 && !(usage != null && usage.completionTokens() >= 0 && usage.completionTokens() == events);
    }

    RequestRecord toRecord(FinishedRequest f) {
        return toRecord(f, event -> tokenizer.count(f.tokenEventTexts().event(event)));
    }

    /**
     * @param tokensOf the tokens of an event (by its index) that the server did not count: the tokenizer's,
     *              or one for a provisional line
     */
    private RequestRecord toRecord(FinishedRequest f, IntUnaryOperator tokensOf) {
        int events = f.timings().tokenEventNanos().length;
        int[] counts = new int[events];
        Usage usage = f.usage();
        boolean serverOutput = usage != null && usage.completionTokens() >= 0;
        int[] given = f.serverTokenCounts();
        if (given != null) {
            // The server counted each event's tokens (SGLang): its counts stand; the tokenizer fills any gap.
            for (int i = 0; i < events; i++) {
                counts[i] = given[i] >= 1 ? given[i] : Math.max(1, tokensOf.applyAsInt(i));
            }
        } else if (serverOutput && usage.completionTokens() == events) {
            // One token per event, as the server's own count confirms.
            java.util.Arrays.fill(counts, 1);
        } else {
            for (int i = 0; i < events; i++) {
                counts[i] = Math.max(1, tokensOf.applyAsInt(i));
            }
        }
        int localOutput = 0;
        for (int count : counts) {
            localOutput += count;
        }
        boolean serverInput = usage != null && usage.promptTokens() >= 0;
        int outputTokens = serverOutput ? usage.completionTokens() : localOutput;
        TokenTexts texts = f.tokenEventTexts();
        // Tokens counted by the server with no token event to carry their text (a tool call's
        // arguments, say): the answer's text is not known, so neither are its words.
        boolean outputTextKnown = !(events == 0 && outputTokens > 0);
        return new RequestRecord(
                f.request().index(),
                f.requestId(),
                f.warmup(),
                f.timings().relativeTo(runStartNanos),
                counts,
                f.httpStatus(),
                f.outcome(),
                serverInput ? usage.promptTokens() : f.request().inputTokens(),
                serverInput,
                outputTokens,
                serverOutput ? TokenSource.SERVER : TokenSource.LOCAL_TOKENIZER,
                f.finishReason(),
                f.streamed(),
                f.retryAfter(),
                f.request().session(),
                f.serverTimings(),
                new TextCounts(
                        f.request().inputWords(),
                        f.request().inputCharacters(),
                        outputTextKnown ? texts.words() : TextCounts.UNKNOWN,
                        outputTextKnown ? texts.characters() : TextCounts.UNKNOWN));
    }

    /** What {@link #finishAfter} runs: the sending whose requests this recorder is handed. */
    interface Sending {
        void run() throws InterruptedException;
    }

    /**
     * Runs {@code sending}, then {@link #finish}es whatever it did: what finished is on disk, and
     * this recorder's thread has ended, before the caller closes the journal. A finish that fails
     * after the sending failed is added to the sending's failure, which is the one thrown.
     */
    void finishAfter(Sending sending) throws IOException, InterruptedException {
        try {
            sending.run();
        } catch (Throwable failure) {
            try {
                finish();
            } catch (IOException | InterruptedException | RuntimeException alsoFailed) {
                failure.addSuppressed(alsoFailed);
            }
            throw failure;
        }
        finish();
    }

    /**
     * Waits until every request handed over so far is journaled.
     *
     * @throws IOException when the journal could not be written
     */
    public void finish() throws IOException, InterruptedException {
        queue.add(new End());
        thread.join();
        if (writeFailure != null) {
            throw writeFailure;
        }
    }
}
