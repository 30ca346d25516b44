package dev.llmload.record;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * {@code inputs.jsonl}: the exact body of every request sent, one JSON line each,
 * {@code {"index":…,"request_id":…,"body":{…}}}, in the order they went out; joined with
 * {@code requests.jsonl} by {@code index}. Only the body: the headers, where an API key travels,
 * are never written. A body is handed over by whichever thread sends it (a dispatcher or an
 * event loop) without blocking it; the log's own thread ({@code llmload-inputs}) owns the file,
 * writes each line and flushes whenever it has caught up, so what was sent is on disk moments
 * later. A write that fails stops the log (the run goes on: the journal is the run's record) and
 * is reported by {@link #close}.
 */
public final class InputLog implements AutoCloseable {

    public static final String FILE_NAME = "inputs.jsonl";

    private record Entry(long index, String requestId, byte[] body) {}

    /** Tells the writer that nothing follows. */
    private static final Entry END = new Entry(-1, null, null);

    private static final byte[] INDEX = "{\"index\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REQUEST_ID = ",\"request_id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BODY = "\",\"body\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LINE_END = "}\n".getBytes(StandardCharsets.US_ASCII);

    /** Unbounded, so a sender never waits; the writer keeps up with any request rate a disk allows. */
    private final LinkedBlockingQueue<Entry> queue = new LinkedBlockingQueue<>();

    private final OutputStream out;
    private final Thread writer;
    private IOException failure;

    private InputLog(OutputStream out) {
        this.out = out;
        this.writer = Thread.ofPlatform().name("llmload-inputs").daemon().unstarted(this::write);
    }

    public static InputLog create(Path file) throws IOException {
        InputLog log = new InputLog(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
        log.writer.start();
        return log;
    }

    /**
     * Hands over the body of a request just sent; never blocks.
     *
     * @param body the bytes sent, a JSON object (every dialect's request body is one)
     */
    public void sent(long index, String requestId, byte[] body) {
        queue.add(new Entry(index, requestId, body));
    }

    private void write() {
        try {
            while (true) {
                Entry entry = queue.take();
                if (entry == END) {
                    break;
                }
                out.write(INDEX);
                out.write(Long.toString(entry.index()).getBytes(StandardCharsets.US_ASCII));
                out.write(REQUEST_ID);
                out.write(JsonStringEncoder.getInstance().quoteAsUTF8(entry.requestId()));
                out.write(BODY);
                out.write(entry.body());
                out.write(LINE_END);
                if (queue.isEmpty()) {
                    out.flush();
                }
            }
            out.flush();
        } catch (IOException e) {
            failure = e;
            // Nothing more is written; what is handed over from now on is dropped with the queue.
            queue.clear();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writes what was handed over and closes the file.
     *
     * @throws IOException when a write failed (the lines before it are in the file)
     */
    @Override
    public void close() throws IOException {
        queue.add(END);
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.close();
        if (failure != null) {
            throw failure;
        }
    }
}
