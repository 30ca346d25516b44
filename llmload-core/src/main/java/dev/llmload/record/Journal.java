package dev.llmload.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * {@code requests.jsonl}: one JSON line per finished request, appended and flushed as each request
 * ends, so a run that dies loses nothing that finished. Times are milliseconds with microsecond
 * precision: the send times as offsets from the run's start, token times as offsets from the
 * request's own send. Records are kept at microsecond precision in memory too, so a report rebuilt
 * from the journal equals the original. A writer is used by one thread (the recorder's).
 *
 * <p>A response whose tokens take long to count locally gets a provisional line at once, marked
 * {@code "counts_pending": true} and carrying one token per event, and its whole line once counted:
 * a later line of the same index stands in for a provisional one, and a provisional line that
 * none followed (the process died while counting) is read as it is. So the request is on disk as
 * soon as it ends, whatever its counting costs.
 *
 * <p>A write that fails (a full disk) is cut back to the last whole line, so the file never ends
 * in a torn line, and is reported as a {@link JournalWriteException}; the writer takes no more.
 */
public final class Journal implements AutoCloseable {

    public static final String FILE_NAME = "requests.jsonl";

    /** FastDoubleParser for the token times: a big journal's report parses hundreds of millions. */
    private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build();

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
        String line = writeLine(toJson(record, false));
        // What reading the line back would give, without reading it; a line with a text that
        // does not come back as it is (a lone surrogate, written as '?') is read back as written.
        return carriedAsIs(record) ? atJournalPrecision(record)
                : fromJson(new String(line.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
    }

    /**
     * {@code record} as its journal line reads back ({@link #fromJson}): the times rounded to the
     * microseconds the line holds, each token time and relative moment measured from the rounded
     * send time as the reader adds them up, a moment written as null (before the run's start)
     * {@link RequestTimings#NEVER}, and the server's timings at the three decimals written.
     * Valid for a record whose texts {@link #carriedAsIs}.
     */
    static RequestRecord atJournalPrecision(RequestRecord r) {
        RequestTimings t = r.timings();
        long sent = micros(t.sentNanos()) * 1000;
        long[] events = t.tokenEventNanos();
        long[] tokens = new long[events.length];
        for (int i = 0; i < events.length; i++) {
            tokens[i] = sent + micros(events[i] - t.sentNanos()) * 1000;
        }
        RequestTimings timings = new RequestTimings(micros(t.intendedSendNanos()) * 1000, sent,
                readBack(t.firstByteNanos(), t.sentNanos(), sent), readBack(t.firstTokenNanos(), t.sentNanos(), sent),
                readBack(t.firstContentNanos(), t.sentNanos(), sent), readBack(t.endNanos(), t.sentNanos(), sent), tokens);
        ServerTimings s = r.serverTimings();
        ServerTimings server = s == null ? null : new ServerTimings(reported(s.loadMs()), reported(s.prefillMs()),
                reported(s.decodeMs()), reported(s.totalMs()), s.cachedPromptTokens() >= 0 ? s.cachedPromptTokens() : -1);
        return new RequestRecord(r.index(), r.requestId(), r.warmup(), timings, r.tokenEventCounts(), r.httpStatus(),
                r.outcome(), r.inputTokens(), r.inputTokensFromServer(), r.outputTokens(), r.outputTokenSource(),
                r.finishReason(), r.streamed(), r.retryAfter(), r.session(), server);
    }

    /** A moment as {@link #writeRelative} writes it and {@link Line#record} reads it back. */
    private static long readBack(long nanos, long from, long sentAtJournalPrecision) {
        return nanos < 0 ? RequestTimings.NEVER : sentAtJournalPrecision + micros(nanos - from) * 1000;
    }

    private static double reported(double ms) {
        return Double.isNaN(ms) ? Double.NaN : Math.round(ms * 1000.0) / 1000.0;
    }

    /** Whether the record's texts come back from a line as they are: valid UTF-16, no lone surrogates. */
    static boolean carriedAsIs(RequestRecord r) {
        return noSurrogates(r.requestId()) && noSurrogates(r.finishReason()) && noSurrogates(r.retryAfter())
                && !(r.outcome() instanceof Outcome.Failure failure && !noSurrogates(failure.message()));
    }

    private static boolean noSurrogates(String text) {
        if (text != null) {
            for (int i = 0; i < text.length(); i++) {
                if (Character.isSurrogate(text.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Writes {@code record}'s provisional line, before its tokens are counted: its counts stand
     * until {@link #append} writes the same index's whole line.
     */
    public void appendPending(RequestRecord record) throws IOException {
        writeLine(toJson(record, true));
    }

    /** Writes {@code line} as one whole line, or cuts a failed write back to the last whole line. */
    private String writeLine(String line) throws IOException {
        if (failure != null) {
            throw failure;
        }
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
        return line;
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
        return toJson(r, false);
    }

    /** @param pending mark the line provisional ({@code "counts_pending": true}) */
    private static String toJson(RequestRecord r, boolean pending) {
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
                writeMillis(json, micros(time - t.sentNanos()));
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
            if (pending) {
                json.writeBooleanField("counts_pending", true);
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

    private static void writeMs(JsonGenerator json, String name, long nanos) throws IOException {
        json.writeFieldName(name);
        writeMillis(json, micros(nanos));
    }

    private static void writeRelative(JsonGenerator json, String name, long nanos, long from) throws IOException {
        if (nanos < 0) {
            json.writeNullField(name);
        } else {
            json.writeFieldName(name);
            writeMillis(json, micros(nanos - from));
        }
    }

    /** Writes {@code micros / 1000.0} milliseconds exactly as {@link Double#toString} spells it. */
    private static void writeMillis(JsonGenerator json, long micros) throws IOException {
        char[] text = new char[MILLIS_CHARS];
        int length = millisText(micros, text);
        if (length < 0) {
            json.writeNumber(micros / 1000.0);
        } else {
            json.writeNumber(text, 0, length);
        }
    }

    private static final int MILLIS_CHARS = 16;

    /**
     * {@code Double.toString(micros / 1000.0)} into {@code text}, without the double and its
     * shortest-decimal search (a line has a number per token event): where the double is at least
     * 0.001 and below 10<sup>7</sup> in size, or zero, that is its plain decimal, the whole part,
     * a point and the thousandths without trailing zeros but at least one digit (no other decimal
     * of at most three places lies within the double's precision there). Returns the length, or
     * -1 outside that range (scientific notation).
     */
    static int millisText(long micros, char[] text) {
        if (micros <= -10_000_000_000L || micros >= 10_000_000_000L) {
            return -1;
        }
        int n = 0;
        long magnitude = micros;
        if (micros < 0) {
            text[n++] = '-';
            magnitude = -micros;
        }
        long whole = magnitude / 1000;
        int fraction = (int) (magnitude % 1000);
        int start = n;
        do {
            text[n++] = (char) ('0' + whole % 10);
            whole /= 10;
        } while (whole > 0);
        for (int i = start, j = n - 1; i < j; i++, j--) {
            char c = text[i];
            text[i] = text[j];
            text[j] = c;
        }
        text[n++] = '.';
        text[n++] = (char) ('0' + fraction / 100);
        if (fraction % 100 != 0) {
            text[n++] = (char) ('0' + fraction / 10 % 10);
            if (fraction % 10 != 0) {
                text[n++] = (char) ('0' + fraction % 10);
            }
        }
        return n;
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
     * Hands each record of a journal to {@code consumer} in file order as it is read, holding a few
     * MB of lines at a time: the way to read a journal larger than the heap. The rules of
     * {@link #read}. A provisional line is held back until the whole line of its index stands in
     * for it; one that none followed is handed over at the end, as written.
     *
     * <p>The lines are parsed on {@link #parsingThreads} threads of their own, a chunk of lines each
     * at a time, and handed to {@code consumer} on the caller's thread in file order, so what the
     * consumer computes does not depend on the threads.
     */
    public static void forEach(Path file, java.util.function.Consumer<RequestRecord> consumer) throws IOException {
        forEach(file, false, consumer);
    }

    /**
     * {@link #forEach(Path, java.util.function.Consumer)} with each record without its token gaps
     * ({@link RequestRecord#withoutTokenGaps}), made so on the parsing threads, and for a line in
     * the writer's form without building its token arrays at all: the way to hold a big run's
     * requests.
     */
    public static void forEachWithoutTokenGaps(Path file, java.util.function.Consumer<RequestRecord> consumer)
            throws IOException {
        forEach(file, true, consumer);
    }

    /**
     * Folds a journal's records into parts ({@link RecordSource#fold}): a part per chunk of lines,
     * made and filled on the parsing threads as the lines are parsed, then handed to {@code merge}
     * on the caller's thread in file order. The rules of {@link #read}: a provisional line's record
     * goes into a part of its own at the end when no whole line of its index followed. The way to
     * derive from a journal larger than the heap on every core: no record outlives its chunk.
     */
    public static <P> void fold(Path file, Supplier<P> newPart, BiConsumer<P, RequestRecord> add,
                                java.util.function.Consumer<P> merge) throws IOException {
        read(file, false, new Folding<>(newPart, add, merge), null);
    }

    /**
     * The records of {@code files}, one journal after another: {@link #forEach} each, or
     * {@link #fold} each for {@link RecordSource#fold}.
     */
    public static RecordSource source(List<Path> files) {
        List<Path> journals = List.copyOf(files);
        return new RecordSource() {
            @Override
            public void forEach(java.util.function.Consumer<RequestRecord> consumer) throws IOException {
                for (Path file : journals) {
                    Journal.forEach(file, consumer);
                }
            }

            @Override
            public <P> void fold(Supplier<P> newPart, BiConsumer<P, RequestRecord> add,
                                 java.util.function.Consumer<P> merge) throws IOException {
                for (Path file : journals) {
                    Journal.fold(file, newPart, add, merge);
                }
            }
        };
    }

    private static void forEach(Path file, boolean withoutTokenGaps, java.util.function.Consumer<RequestRecord> consumer)
            throws IOException {
        read(file, withoutTokenGaps, null, consumer);
    }

    /** How a read folds its whole records into parts on the parsing threads. */
    private record Folding<P>(Supplier<P> newPart, BiConsumer<P, RequestRecord> add,
                              java.util.function.Consumer<P> merge) {

        @SuppressWarnings("unchecked")
        void merge(Object part) {
            merge.accept((P) part);
        }

        @SuppressWarnings("unchecked")
        void add(Object part, RequestRecord record) {
            add.accept((P) part, record);
        }
    }

    /**
     * Reads {@code file}'s records: each handed to {@code consumer}, or, with a {@code folding},
     * folded into a part per chunk on the parsing threads.
     */
    private static void read(Path file, boolean withoutTokenGaps, Folding<?> folding,
                             java.util.function.Consumer<RequestRecord> consumer) throws IOException {
        Map<Long, RequestRecord> pending = new LinkedHashMap<>();
        int threads = parsingThreads();
        AtomicInteger named = new AtomicInteger();
        ExecutorService parsing = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "llmload-journal-" + named.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        ArrayDeque<Future<Parsed>> parsed = new ArrayDeque<>();
        long[] number = {0};
        String[] bad = {null};
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            byte[] carried = new byte[0];
            boolean eof = false;
            while (!eof) {
                // A chunk: what was carried from the last one, then whole lines up to its last newline.
                byte[] chunk = Arrays.copyOf(carried, Math.max(CHUNK_BYTES, 2 * carried.length));
                int end = carried.length;
                int scanned = 0;
                int lastNewline = -1;
                while (lastNewline < 0 && !eof) {
                    if (end == chunk.length) {
                        chunk = Arrays.copyOf(chunk, 2 * chunk.length);
                    }
                    int read = in.read(ByteBuffer.wrap(chunk, end, chunk.length - end));
                    if (read < 0) {
                        eof = true;
                        break;
                    }
                    end += read;
                    if (end == chunk.length) {
                        for (int i = end - 1; i >= scanned; i--) {
                            if (chunk[i] == '\n') {
                                lastNewline = i;
                                break;
                            }
                        }
                        scanned = end;
                    }
                }
                int wholeEnd = eof ? end : lastNewline + 1;
                carried = Arrays.copyOfRange(chunk, wholeEnd, end);
                byte[] lines = chunk;
                int length = wholeEnd;
                if (length > 0) {
                    parsed.add(parsing.submit(() -> parseLines(lines, length, withoutTokenGaps, folding)));
                }
                while (parsed.size() > 2 * threads || (eof && !parsed.isEmpty())) {
                    hand(file, await(parsed.poll()), number, bad, pending, consumer, folding);
                }
            }
        } finally {
            parsing.shutdownNow();
        }
        if (folding == null) {
            pending.values().forEach(consumer);
        } else if (!pending.isEmpty()) {
            Object part = folding.newPart().get();
            pending.values().forEach(record -> folding.add(part, record));
            folding.merge(part);
        }
    }

    /** Bytes of lines parsed as one task. */
    private static final int CHUNK_BYTES = 1 << 22;

    /** Threads that parse a journal being read: as many as the processors, at most four. */
    private static int parsingThreads() {
        return Math.min(4, Math.max(1, Runtime.getRuntime().availableProcessors()));
    }

    /** What a line of a chunk became: a record, a provisional one, nothing (blank) or why it is bad. */
    private record Provisional(RequestRecord record) {}

    private record Bad(String reason) {}

    private static final Object BLANK = new Object();
    /** A whole line's record, folded into its chunk's part. */
    private static final Object FOLDED = new Object();

    /**
     * A chunk's lines, each parsed: a record, {@link Provisional}, {@link Bad} or {@link #BLANK}; with a
     * folding, a whole line's record is {@link #FOLDED} into {@code part} instead, its index in {@code folded}.
     */
    private record Parsed(Object[] items, long[] folded, Object part) {}

    private static Parsed parseLines(byte[] bytes, int length, boolean withoutTokenGaps, Folding<?> folding) {
        List<Object> items = new ArrayList<>(length / 1024 + 16);
        Object part = folding == null ? null : folding.newPart().get();
        long[] folded = new long[folding == null ? 0 : length / 1024 + 16];
        int foldedCount = 0;
        JournalLineScanner.Scratch scratch = new JournalLineScanner.Scratch();
        int start = 0;
        while (start < length) {
            int newline = start;
            while (newline < length && bytes[newline] != '\n') {
                newline++;
            }
            int lineLength = newline - start;
            if (lineLength > 0 && bytes[newline - 1] == '\r') {
                lineLength--;
            }
            if (isBlank(bytes, start, lineLength)) {
                items.add(BLANK);
            } else {
                RequestRecord record = null;
                try {
                    Line line = JournalLineScanner.scan(bytes, start, lineLength, withoutTokenGaps, scratch);
                    if (line == null) {
                        line = parse(JSON.createParser(bytes, start, lineLength));
                    }
                    record = withoutTokenGaps ? line.record().withoutTokenGaps() : line.record();
                    items.add(line.countsPending ? new Provisional(record) : folding != null ? FOLDED : record);
                } catch (IOException | RuntimeException e) {
                    items.add(new Bad(String.valueOf(e.getMessage())));
                }
                if (items.getLast() == FOLDED) {
                    // Outside the line's try: what the fold throws is no fault of the line.
                    folding.add(part, record);
                    if (foldedCount == folded.length) {
                        folded = Arrays.copyOf(folded, 2 * foldedCount);
                    }
                    folded[foldedCount++] = record.index();
                }
            }
            start = newline + 1;
        }
        return new Parsed(items.toArray(), Arrays.copyOf(folded, foldedCount), part);
    }

    /** Hands a chunk's records over in order, holding provisional ones back; a bad line is an error once a line follows it. */
    private static void hand(Path file, Parsed parsed, long[] number, String[] bad, Map<Long, RequestRecord> pending,
                             java.util.function.Consumer<RequestRecord> consumer, Folding<?> folding) throws IOException {
        int folded = 0;
        for (Object item : parsed.items()) {
            number[0]++;
            if (bad[0] != null) {
                throw new IOException(bad[0]);
            }
            switch (item) {
                case RequestRecord record -> {
                    if (!pending.isEmpty()) {
                        pending.remove(record.index());
                    }
                    consumer.accept(record);
                }
                case Provisional provisional -> pending.put(provisional.record().index(), provisional.record());
                case Bad reason -> bad[0] = file + ":" + number[0] + ": not a valid journal line (" + reason.reason() + ")";
                default -> {
                    if (item == FOLDED) {
                        long index = parsed.folded()[folded++];
                        if (!pending.isEmpty()) {
                            pending.remove(index);
                        }
                    } // else a blank line
                }
            }
        }
        if (folding != null) {
            folding.merge(parsed.part());
        }
    }

    private static <T> T await(Future<T> chunk) throws IOException {
        try {
            return chunk.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while reading the journal");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }

    private static boolean isBlank(byte[] bytes, int from, int length) {
        for (int i = from; i < from + length; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /**
     * One journal line back as a record. Read field by field with a streaming parser (no tree: a
     * big journal's report reads millions of lines, twice); fields it does not know are skipped.
     *
     * @throws IOException when the line is not JSON, or a field the record needs is missing
     */
    static RequestRecord fromJson(String line) throws IOException {
        return parse(JSON.createParser(line)).record();
    }

    private static Line parse(JsonParser parser) throws IOException {
        Line l = new Line();
        try (JsonParser json = parser) {
            expect(json.nextToken(), JsonToken.START_OBJECT);
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                switch (name) {
                    case "index" -> l.index = json.getLongValue();
                    case "request_id" -> l.requestId = text(json, value);
                    case "warmup" -> l.warmup = json.getBooleanValue();
                    case "session_id" -> l.sessionId = value == JsonToken.VALUE_NULL ? null : json.getLongValue();
                    case "turn" -> l.turn = value == JsonToken.VALUE_NULL ? 0 : json.getIntValue();
                    case "outcome" -> l.outcome = text(json, value);
                    case "error" -> l.error = text(json, value);
                    case "timeout_kind" -> l.timeoutKind = text(json, value);
                    case "http_status" -> l.httpStatus = json.getIntValue();
                    case "streamed" -> l.streamed = json.getBooleanValue();
                    case "input_tokens" -> l.inputTokens = json.getIntValue();
                    case "input_tokens_source" -> l.inputFromServer = "server".equals(text(json, value));
                    case "output_tokens" -> l.outputTokens = json.getIntValue();
                    case "output_tokens_source" -> l.outputFromServer = "server".equals(text(json, value));
                    // A few distinct values over millions of lines: one String each, not one per line.
                    case "finish_reason" -> l.finishReason = value == JsonToken.VALUE_NULL ? null : text(json, value).intern();
                    case "retry_after" -> l.retryAfter = text(json, value);
                    case "intended_send_ms" -> l.intended = nanos(json, value);
                    case "sent_ms" -> l.sent = nanos(json, value);
                    case "first_byte_ms" -> l.firstByte = nanos(json, value);
                    case "ttft_ms" -> l.firstToken = nanos(json, value);
                    case "ttfc_ms" -> l.firstContent = nanos(json, value);
                    case "end_ms" -> l.end = nanos(json, value);
                    case "token_times_ms" -> l.tokenTimes = longs(json, value);
                    case "token_counts" -> l.tokenCounts = ints(json, value);
                    case "server_timings" -> l.serverTimings = serverTimings(json, value);
                    case "counts_pending" -> l.countsPending = value == JsonToken.VALUE_TRUE;
                    default -> json.skipChildren();
                }
            }
        }
        return l;
    }

    /** The fields of one line as read; {@link #record} checks that the needed ones were there. */
    static final class Line {
        Long index;
        String requestId;
        Boolean warmup;
        Long sessionId;
        int turn;
        String outcome;
        String error;
        String timeoutKind;
        Integer httpStatus;
        Boolean streamed;
        Integer inputTokens;
        Boolean inputFromServer;
        Integer outputTokens;
        Boolean outputFromServer;
        String finishReason;
        String retryAfter;
        Long intended;
        Long sent;
        Long firstByte;
        Long firstToken;
        Long firstContent;
        Long end;
        long[] tokenTimes;
        int[] tokenCounts;
        ServerTimings serverTimings;
        boolean countsPending;

        /** The record of the line; once: it takes the line's token times as its own. */
        RequestRecord record() throws IOException {
            long sentNanos = need(sent, "sent_ms");
            long[] times = need(tokenTimes, "token_times_ms");
            int[] counts = need(tokenCounts, "token_counts");
            if (counts.length < times.length) {
                throw new IOException("token_counts has " + counts.length + " entries for " + times.length + " token times");
            }
            // The line's own array (read for this line alone) becomes the record's: times from the send, made absolute.
            long[] absolute = times;
            for (int i = 0; i < times.length; i++) {
                absolute[i] = sentNanos + times[i];
            }
            tokenTimes = null;
            Outcome result;
            if (need(outcome, "outcome").equals("success")) {
                result = Outcome.SUCCESS;
            } else {
                result = new Outcome.Failure(FailureClass.fromKey(outcome),
                        timeoutKind == null ? null : TimeoutKind.fromKey(timeoutKind), error);
            }
            return new RequestRecord(
                    need(index, "index"),
                    requestId,
                    need(warmup, "warmup"),
                    new RequestTimings(need(intended, "intended_send_ms"), sentNanos, relative(firstByte, sentNanos),
                            relative(firstToken, sentNanos), relative(firstContent, sentNanos), relative(end, sentNanos),
                            absolute),
                    counts.length == times.length ? counts : Arrays.copyOf(counts, times.length),
                    need(httpStatus, "http_status"),
                    result,
                    need(inputTokens, "input_tokens"),
                    need(inputFromServer, "input_tokens_source"),
                    need(outputTokens, "output_tokens"),
                    need(outputFromServer, "output_tokens_source") ? TokenSource.SERVER : TokenSource.LOCAL_TOKENIZER,
                    finishReason,
                    need(streamed, "streamed"),
                    retryAfter,
                    sessionId == null ? null : new SessionTurn(sessionId, turn),
                    serverTimings);
        }

        private static <T> T need(T value, String field) throws IOException {
            if (value == null) {
                throw new IOException("no " + field);
            }
            return value;
        }

        private static long relative(Long nanos, long from) {
            return nanos == null ? RequestTimings.NEVER : from + nanos;
        }
    }

    private static void expect(JsonToken token, JsonToken expected) throws IOException {
        if (token != expected) {
            throw new IOException("expected " + expected + ", found " + token);
        }
    }

    private static String text(JsonParser json, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_NULL ? null : json.getValueAsString();
    }

    /** Milliseconds at microsecond precision as nanoseconds; null for JSON null. */
    private static Long nanos(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        return micros(json, value) * 1000;
    }

    /**
     * Milliseconds as whole microseconds: {@code round(ms × 1000)}. The journal writes them with at
     * most three decimals, which are read as digits, exactly as the rounding of the parsed double
     * gives them (its error is far below half a microsecond); any other form goes through the double.
     */
    private static long micros(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_FLOAT) {
            long micros = decimalMicros(json.getTextCharacters(), json.getTextOffset(), json.getTextLength());
            if (micros != NOT_DECIMAL) {
                return micros;
            }
        }
        return Math.round(json.getValueAsDouble() * 1000.0);
    }

    private static final long NOT_DECIMAL = Long.MIN_VALUE;

    /** {@code [-]d…d.d[d[d]]} with at most 12 digits before the point, in microseconds; else {@link #NOT_DECIMAL}. */
    static long decimalMicros(char[] text, int offset, int length) {
        int i = offset;
        int end = offset + length;
        boolean negative = i < end && text[i] == '-';
        if (negative) {
            i++;
        }
        long whole = 0;
        int digits = 0;
        while (i < end && text[i] >= '0' && text[i] <= '9') {
            whole = whole * 10 + (text[i++] - '0');
            digits++;
        }
        if (digits == 0 || digits > 12 || i >= end || text[i] != '.') {
            return NOT_DECIMAL;
        }
        i++;
        int decimals = end - i;
        if (decimals < 1 || decimals > 3) {
            return NOT_DECIMAL;
        }
        long fraction = 0;
        for (; i < end; i++) {
            char c = text[i];
            if (c < '0' || c > '9') {
                return NOT_DECIMAL;
            }
            fraction = fraction * 10 + (c - '0');
        }
        fraction *= decimals == 1 ? 100 : decimals == 2 ? 10 : 1;
        long micros = whole * 1000 + fraction;
        return negative ? -micros : micros;
    }

    private static long[] longs(JsonParser json, JsonToken value) throws IOException {
        expect(value, JsonToken.START_ARRAY);
        long[] values = new long[16];
        int n = 0;
        while (json.nextToken() != JsonToken.END_ARRAY) {
            if (n == values.length) {
                values = Arrays.copyOf(values, 2 * n);
            }
            values[n++] = micros(json, json.currentToken()) * 1000;
        }
        return Arrays.copyOf(values, n);
    }

    private static int[] ints(JsonParser json, JsonToken value) throws IOException {
        expect(value, JsonToken.START_ARRAY);
        int[] values = new int[16];
        int n = 0;
        while (json.nextToken() != JsonToken.END_ARRAY) {
            if (n == values.length) {
                values = Arrays.copyOf(values, 2 * n);
            }
            values[n++] = json.getValueAsInt();
        }
        return Arrays.copyOf(values, n);
    }

    /** The server's own timings, as it reported them; fields it did not report are NaN (or -1 cached tokens). */
    private static ServerTimings serverTimings(JsonParser json, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            json.skipChildren();
            return null;
        }
        double load = Double.NaN;
        double prefill = Double.NaN;
        double decode = Double.NaN;
        double total = Double.NaN;
        int cached = -1;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            JsonToken field = json.nextToken();
            boolean number = field == JsonToken.VALUE_NUMBER_INT || field == JsonToken.VALUE_NUMBER_FLOAT;
            switch (name) {
                case "load_ms" -> load = number ? json.getDoubleValue() : Double.NaN;
                case "prefill_ms" -> prefill = number ? json.getDoubleValue() : Double.NaN;
                case "decode_ms" -> decode = number ? json.getDoubleValue() : Double.NaN;
                case "total_ms" -> total = number ? json.getDoubleValue() : Double.NaN;
                case "cached_prompt_tokens" -> cached = field == JsonToken.VALUE_NULL ? -1 : json.getValueAsInt();
                default -> json.skipChildren();
            }
        }
        return new ServerTimings(load, prefill, decode, total, cached);
    }
}
