package dev.llmload.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code requests.jsonl}: one JSON line per finished request, appended and flushed as each request
 * ends, so a run that dies loses nothing that finished. Times are milliseconds with microsecond
 * precision: the send times as offsets from the run's start, token times as offsets from the
 * request's own send. Records are kept at microsecond precision in memory too, so a report rebuilt
 * from the journal equals the original. A writer is used by one thread (the recorder's).
 *
 * <p>A write that fails (a full disk) is cut back to the last whole line, so the file never ends
 * in a torn line, and is reported as a {@link JournalWriteException}; the writer takes no more.
 */
public final class Journal implements AutoCloseable {

    public static final String FILE_NAME = "requests.jsonl";

    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * Test hook: a system property naming how many bytes the journal's disk has free, so that a
     * full disk can be tried where no small file system can be mounted. Never set in normal use.
     */
    public static final String SIMULATED_FREE_BYTES_PROPERTY = "llmload.journal.simulatedFreeBytes";

    private final Path file;
    private final FileChannel channel;
    private final long freeBytes;
    /** Bytes of whole lines written; a failed write is cut back to this. */
    private long wholeBytes;
    private long lines;
    private JournalWriteException failure;

    private Journal(Path file, FileChannel channel, long freeBytes) {
        this.file = file;
        this.channel = channel;
        this.freeBytes = freeBytes;
    }

    public static Journal create(Path file) throws IOException {
        String simulated = System.getProperty(SIMULATED_FREE_BYTES_PROPERTY);
        return new Journal(file, FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE), simulated == null ? Long.MAX_VALUE : Long.parseLong(simulated));
    }

    /**
     * Writes one whole line and flushes it to the operating system.
     *
     * @return the record as the journal holds it (times at microsecond precision); keep this one,
     *         so that statistics computed now and from the file later are the same
     */
    public RequestRecord append(RequestRecord record) throws IOException {
        if (failure != null) {
            throw failure;
        }
        String line = toJson(record);
        ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
        try {
            write(bytes);
        } catch (IOException e) {
            failure = new JournalWriteException(file, lines, e);
            try {
                // Cutting a file shorter needs no free space: the torn line goes, every whole line stays.
                channel.truncate(wholeBytes);
            } catch (IOException cut) {
                failure.addSuppressed(cut);
            }
            throw failure;
        }
        wholeBytes += bytes.limit();
        lines++;
        return fromJson(MAPPER.readTree(line));
    }

    /** Writes all of {@code bytes} to the operating system (no fsync: a killed process loses nothing written). */
    private void write(ByteBuffer bytes) throws IOException {
        long room = freeBytes - wholeBytes;
        if (bytes.remaining() > room) {
            // The simulated disk takes what fits, then is full, as a real one does.
            bytes.limit((int) Math.max(0, room));
            channel.write(bytes);
            throw new IOException("No space left on device");
        }
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    static String toJson(RequestRecord r) {
        StringWriter text = new StringWriter(256 + r.tokenEventCounts().length * 12);
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            json.writeNumberField("index", r.index());
            json.writeStringField("request_id", r.requestId());
            json.writeBooleanField("warmup", r.warmup());
            if (r.session() != null) {
                json.writeNumberField("session_id", r.session().sessionId());
                json.writeNumberField("turn", r.session().turn());
            }
            json.writeStringField("outcome", r.outcome().key());
            if (r.outcome() instanceof Outcome.Failure failure) {
                json.writeStringField("error", failure.message());
                if (failure.timeoutKind() != null) {
                    json.writeStringField("timeout_kind", failure.timeoutKind().key());
                }
            }
            json.writeNumberField("http_status", r.httpStatus());
            json.writeBooleanField("streamed", r.streamed());
            json.writeNumberField("input_tokens", r.inputTokens());
            json.writeStringField("input_tokens_source", r.inputTokensFromServer() ? "server" : "workload");
            json.writeNumberField("output_tokens", r.outputTokens());
            json.writeStringField("output_tokens_source", r.outputTokenSource().key());
            json.writeStringField("finish_reason", r.finishReason());
            if (r.retryAfter() != null) {
                json.writeStringField("retry_after", r.retryAfter());
            }
            RequestTimings t = r.timings();
            writeMs(json, "intended_send_ms", t.intendedSendNanos());
            writeMs(json, "sent_ms", t.sentNanos());
            writeRelative(json, "first_byte_ms", t.firstByteNanos(), t.sentNanos());
            writeRelative(json, "ttft_ms", t.firstTokenNanos(), t.sentNanos());
            writeRelative(json, "ttfc_ms", t.firstContentNanos(), t.sentNanos());
            writeRelative(json, "e2e_latency_ms", r.streamed() ? t.lastTokenNanos() : t.endNanos(), t.sentNanos());
            writeRelative(json, "end_ms", t.endNanos(), t.sentNanos());
            json.writeArrayFieldStart("token_times_ms");
            for (long time : t.tokenEventNanos()) {
                json.writeNumber(micros(time - t.sentNanos()) / 1000.0);
            }
            json.writeEndArray();
            json.writeArrayFieldStart("token_counts");
            for (int count : r.tokenEventCounts()) {
                json.writeNumber(count);
            }
            json.writeEndArray();
            if (r.serverTimings() != null) {
                writeServerTimings(json, r.serverTimings());
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    /** The server's own timings, as it reported them (milliseconds); fields it did not report are left out. */
    private static void writeServerTimings(JsonGenerator json, ServerTimings s) throws IOException {
        json.writeObjectFieldStart("server_timings");
        writeReported(json, "load_ms", s.loadMs());
        writeReported(json, "prefill_ms", s.prefillMs());
        writeReported(json, "decode_ms", s.decodeMs());
        writeReported(json, "total_ms", s.totalMs());
        if (s.cachedPromptTokens() >= 0) {
            json.writeNumberField("cached_prompt_tokens", s.cachedPromptTokens());
        }
        json.writeEndObject();
    }

    private static void writeReported(JsonGenerator json, String name, double ms) throws IOException {
        if (!Double.isNaN(ms)) {
            json.writeNumberField(name, Math.round(ms * 1000.0) / 1000.0);
        }
    }

    private static ServerTimings readServerTimings(JsonNode node) {
        if (node == null || !node.isObject()) {
            return null;
        }
        return new ServerTimings(reported(node.get("load_ms")), reported(node.get("prefill_ms")),
                reported(node.get("decode_ms")), reported(node.get("total_ms")),
                node.hasNonNull("cached_prompt_tokens") ? node.get("cached_prompt_tokens").asInt() : -1);
    }

    private static double reported(JsonNode ms) {
        return ms == null || !ms.isNumber() ? Double.NaN : ms.asDouble();
    }

    private static void writeMs(JsonGenerator json, String name, long nanos) throws IOException {
        json.writeNumberField(name, micros(nanos) / 1000.0);
    }

    private static void writeRelative(JsonGenerator json, String name, long nanos, long from) throws IOException {
        if (nanos < 0) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, micros(nanos - from) / 1000.0);
        }
    }

    private static long micros(long nanos) {
        return Math.round(nanos / 1000.0);
    }

    /**
     * Reads a journal back. A last line cut short by a crash is skipped; any other bad line is an
     * error naming the file and line.
     */
    public static List<RequestRecord> read(Path file) throws IOException {
        List<RequestRecord> records = new ArrayList<>();
        forEach(file, records::add);
        return records;
    }

    /**
     * Hands each record of a journal to {@code consumer} in file order as it is read, holding one
     * line at a time: the way to read a journal larger than the heap. The rules of {@link #read}.
     */
    public static void forEach(Path file, java.util.function.Consumer<RequestRecord> consumer) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            String pendingBad = null;
            while ((line = reader.readLine()) != null) {
                number++;
                if (pendingBad != null) {
                    throw new IOException(pendingBad);
                }
                if (line.isBlank()) {
                    continue;
                }
                RequestRecord record;
                try {
                    record = fromJson(MAPPER.readTree(line));
                } catch (IOException | RuntimeException e) {
                    pendingBad = file + ":" + number + ": not a valid journal line (" + e.getMessage() + ")";
                    continue;
                }
                consumer.accept(record);
            }
        }
    }

    static RequestRecord fromJson(JsonNode n) {
        long sent = nanos(n.get("sent_ms"));
        JsonNode times = n.get("token_times_ms");
        JsonNode countsNode = n.get("token_counts");
        long[] tokenTimes = new long[times.size()];
        int[] counts = new int[times.size()];
        for (int i = 0; i < tokenTimes.length; i++) {
            tokenTimes[i] = sent + nanos(times.get(i));
            counts[i] = countsNode.get(i).asInt();
        }
        String outcomeKey = n.get("outcome").asText();
        Outcome outcome;
        if (outcomeKey.equals("success")) {
            outcome = Outcome.SUCCESS;
        } else {
            JsonNode kind = n.get("timeout_kind");
            outcome = new Outcome.Failure(FailureClass.fromKey(outcomeKey),
                    kind == null || kind.isNull() ? null : TimeoutKind.fromKey(kind.asText()), textOrNull(n.get("error")));
        }
        return new RequestRecord(
                n.get("index").asLong(),
                textOrNull(n.get("request_id")),
                n.get("warmup").asBoolean(),
                new RequestTimings(
                        nanos(n.get("intended_send_ms")),
                        sent,
                        relative(n.get("first_byte_ms"), sent),
                        relative(n.get("ttft_ms"), sent),
                        relative(n.get("ttfc_ms"), sent),
                        relative(n.get("end_ms"), sent),
                        tokenTimes),
                counts,
                n.get("http_status").asInt(),
                outcome,
                n.get("input_tokens").asInt(),
                "server".equals(n.get("input_tokens_source").asText()),
                n.get("output_tokens").asInt(),
                "server".equals(n.get("output_tokens_source").asText()) ? TokenSource.SERVER : TokenSource.LOCAL_TOKENIZER,
                textOrNull(n.get("finish_reason")),
                n.get("streamed").asBoolean(),
                textOrNull(n.get("retry_after")),
                n.hasNonNull("session_id") ? new SessionTurn(n.get("session_id").asLong(), n.get("turn").asInt()) : null,
                readServerTimings(n.get("server_timings")));
    }

    private static long nanos(JsonNode ms) {
        return Math.round(ms.asDouble() * 1000.0) * 1000;
    }

    private static long relative(JsonNode ms, long from) {
        return ms == null || ms.isNull() ? RequestTimings.NEVER : from + nanos(ms);
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
