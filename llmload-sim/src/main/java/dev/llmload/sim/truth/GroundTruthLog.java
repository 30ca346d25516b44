package dev.llmload.sim.truth;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Appends one JSON line per finished request to a file, flushed per line so a test or a killed
 * run still sees every request that ended.
 *
 * <p>Threading: {@link #append} is called from any event loop and only enqueues; one thread,
 * {@code sim-ground-truth}, owns the file and does the formatting, off the I/O threads.
 */
public final class GroundTruthLog implements AutoCloseable {

    private static final GroundTruthRecord END =
            new GroundTruthRecord("", 0, 0, null, null, null, new double[0], 0, null, 0, 0, null, "", null);

    private final BlockingQueue<GroundTruthRecord> queue = new LinkedBlockingQueue<>();
    private final BufferedWriter out;
    private final Thread writer;

    public GroundTruthLog(Path path) {
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.out = Files.newBufferedWriter(
                    path,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open ground-truth log " + path, e);
        }
        this.writer = Thread.ofPlatform().name("sim-ground-truth").daemon().start(this::drain);
    }

    public void append(GroundTruthRecord record) {
        queue.add(record);
    }

    /** Writes what is queued, then closes the file. */
    @Override
    public void close() {
        queue.add(END);
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        try (out) {
            for (GroundTruthRecord r = queue.take(); r != END; r = queue.take()) {
                out.write(toJson(r));
                out.write('\n');
                out.flush();
            }
        } catch (IOException e) {
            System.err.println("llmload sim: ground-truth log stopped: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String toJson(GroundTruthRecord r) {
        StringBuilder b = new StringBuilder(128 + r.tokenTimesMs().length * 10);
        b.append("{\"request_id\":");
        string(b, r.requestId());
        b.append(",\"arrival_unix_ms\":").append(r.arrivalUnixMs());
        b.append(",\"arrival_unix_us\":").append(r.arrivalUnixMicros());
        b.append(",\"submitted_ms\":").append(millisOrNull(r.submittedMs()));
        b.append(",\"scheduled_ms\":").append(millisOrNull(r.scheduledMs()));
        b.append(",\"engine_queue_ms\":").append(millisOrNull(r.engineQueueMs()));
        b.append(",\"token_times_ms\":[");
        for (int i = 0; i < r.tokenTimesMs().length; i++) {
            b.append(i == 0 ? "" : ",").append(millis(r.tokenTimesMs()[i]));
        }
        b.append("],\"prompt_tokens\":").append(r.promptTokens());
        b.append(",\"cached_prompt_tokens\":").append(r.cachedPromptTokens());
        b.append(",\"completion_tokens\":").append(r.completionTokens());
        b.append(",\"num_messages\":").append(r.numMessages());
        b.append(",\"finish_reason\":");
        string(b, r.finishReason());
        b.append(",\"outcome\":");
        string(b, r.outcome());
        b.append(",\"api\":");
        string(b, r.api());
        return b.append('}').toString();
    }

    /** Microsecond precision: three decimals of a millisecond. */
    private static String millis(double ms) {
        return String.format(Locale.ROOT, "%.3f", ms);
    }

    private static String millisOrNull(Double ms) {
        return ms == null ? "null" : millis(ms);
    }

    private static void string(StringBuilder b, String s) {
        if (s == null) {
            b.append("null");
            return;
        }
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
