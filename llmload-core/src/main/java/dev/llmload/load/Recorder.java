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
 * ({@code llmload-recorder}), which owns the journal and the list of records. Token counting with
 * the local tokenizer happens here, away from the I/O threads.
 */
final class Recorder implements Consumer<FinishedRequest> {

    /** Queued by {@link #finish} after the last request: the recorder thread stops when it takes it. */
    private static final FinishedRequest END = FinishedRequest.neverSent(null, "end", false, 0, 0, "the run ended");

    private final LinkedBlockingQueue<FinishedRequest> queue = new LinkedBlockingQueue<>();
    private final Journal journal;
    private final Tokenizer tokenizer;
    private final long runStartNanos;
    private final List<RequestRecord> records = new ArrayList<>();
    private final Consumer<RequestRecord> listener;
    private final Thread thread;
    private volatile IOException writeFailure;

    /**
     * @param listener hears every record on the recorder thread (live progress); may be a no-op
     */
    public Recorder(Journal journal, Tokenizer tokenizer, long runStartNanos, Consumer<RequestRecord> listener) {
        this.journal = journal;
        this.tokenizer = tokenizer;
        this.runStartNanos = runStartNanos;
        this.listener = listener;
        this.thread = new Thread(this::drain, "llmload-recorder");
        thread.setDaemon(true);
        thread.start();
    }

    /** Hands a finished request over; safe from any thread, never blocks. */
    @Override
    public void accept(FinishedRequest finished) {
        queue.add(finished);
    }

    private void drain() {
        try {
            FinishedRequest next;
            while ((next = queue.take()) != END) {
                RequestRecord record = toRecord(next);
                if (writeFailure == null) {
                    try {
                        record = journal.append(record);
                    } catch (IOException e) {
                        writeFailure = e;
                    }
                }
                records.add(record);
                listener.accept(record);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
     * @throws IOException when the journal could not be written (the records are still complete)
     */
    public List<RequestRecord> finish() throws IOException, InterruptedException {
        queue.add(END);
        thread.join();
        if (writeFailure != null) {
            throw writeFailure;
        }
        return List.copyOf(records);
    }
}
