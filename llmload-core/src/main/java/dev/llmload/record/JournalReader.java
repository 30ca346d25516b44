package dev.llmload.record;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reads a journal ({@code requests.jsonl}) back, in parallel: the file is read in chunks of whole
 * lines on the caller's thread, each chunk's lines are decoded on one of the parsing threads
 * ({@code llmload-journal-N}, at most four; {@link JournalLineScanner} for a line in the
 * encoder's own form, {@link JournalDecoder} for any other), and what they became is handed back
 * to the caller's thread in file order, so that what a consumer computes does not depend on the
 * threads. A chunk's records (or its folded part) belong to its parsing thread until handed over.
 */
public final class JournalReader {

    private JournalReader() {}

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
    public static void forEach(Path file, Consumer<RequestRecord> consumer) throws IOException {
        forEach(file, false, consumer);
    }

    /**
     * {@link #forEach(Path, Consumer)} with each record without its token gaps
     * ({@link RequestRecord#withoutTokenGaps}), made so on the parsing threads, and for a line in
     * the writer's form without building its token arrays at all: the way to hold a big run's
     * requests.
     */
    public static void forEachWithoutTokenGaps(Path file, Consumer<RequestRecord> consumer) throws IOException {
        forEach(file, true, consumer);
    }

    /**
     * Folds a journal's records' token events into parts ({@link RecordSource#fold}): a part per
     * chunk of lines, made and filled on the parsing threads as the lines are parsed, then handed
     * to {@code merge} on the caller's thread in file order. The rules of {@link #read}: a
     * provisional line's record goes into a part of its own at the end when no whole line of its
     * index followed. The way to derive from a journal larger than the heap on every core: a line
     * in the writer's form is read into one {@link TokenEventsView} per thread, with no record and
     * no array of its own.
     */
    public static <P> void fold(Path file, Supplier<P> newPart, BiConsumer<P, TokenEventsView> add, Consumer<P> merge)
            throws IOException {
        fold(file, newPart, add, merge, null);
    }

    /**
     * {@link #fold(Path, Supplier, BiConsumer, Consumer)}, and in the same read each record without
     * its token gaps to {@code records}, in file order on the caller's thread, as
     * {@link #forEachWithoutTokenGaps} hands them ({@link RecordSource#fold(Supplier, BiConsumer,
     * Consumer, Consumer)}): made on the parsing threads beside each line's view, without the
     * token arrays of a whole record. A chunk's records are handed over before its part is merged.
     *
     * @param records each record without its token gaps; null for none (no record is made)
     */
    public static <P> void fold(
            Path file,
            Supplier<P> newPart,
            BiConsumer<P, TokenEventsView> add,
            Consumer<P> merge,
            Consumer<RequestRecord> records)
            throws IOException {
        read(file, false, new Folding<>(newPart, add, merge, records != null), records);
    }

    /**
     * The records of {@code files}, one journal after another: {@link #forEach} each, or
     * {@link #fold} each for {@link RecordSource#fold}.
     */
    public static RecordSource source(List<Path> files) {
        List<Path> journals = List.copyOf(files);
        return new RecordSource() {
            @Override
            public void forEach(Consumer<RequestRecord> consumer) throws IOException {
                for (Path file : journals) {
                    JournalReader.forEach(file, consumer);
                }
            }

            @Override
            public <P> void fold(
                    Supplier<P> newPart,
                    BiConsumer<P, TokenEventsView> add,
                    Consumer<P> merge,
                    Consumer<RequestRecord> records)
                    throws IOException {
                for (Path file : journals) {
                    JournalReader.fold(file, newPart, add, merge, records);
                }
            }
        };
    }

    private static void forEach(Path file, boolean withoutTokenGaps, Consumer<RequestRecord> consumer)
            throws IOException {
        read(file, withoutTokenGaps, null, consumer);
    }

    /**
     * How a read folds its whole lines' token events into parts on the parsing threads.
     *
     * @param records whether each line's record without its token gaps is made too, for the reader's consumer
     */
    private record Folding<P>(
            Supplier<P> newPart, BiConsumer<P, TokenEventsView> add, Consumer<P> merge, boolean records) {

        @SuppressWarnings("unchecked")
        void merge(Object part) {
            merge.accept((P) part);
        }

        @SuppressWarnings("unchecked")
        void add(Object part, TokenEventsView events) {
            add.accept((P) part, events);
        }
    }

    /**
     * Reads {@code file}'s records: each handed to {@code consumer}, or, with a {@code folding},
     * folded into a part per chunk on the parsing threads (and, where the folding wants the
     * records, each also handed to {@code consumer} without its token gaps).
     */
    private static void read(Path file, boolean withoutTokenGaps, Folding<?> folding, Consumer<RequestRecord> consumer)
            throws IOException {
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
                // A chunk: what was carried from the last one, then whole lines up to its last newline;
                // no larger than what is left of the file (a small journal is most of those read).
                long left = Math.max(0, in.size() - in.position());
                int size = (int) Math.min(CHUNK_BYTES, carried.length + left + 1);
                byte[] chunk = Arrays.copyOf(carried, Math.max(size, 2 * carried.length));
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
            for (RequestRecord record : pending.values()) {
                if (folding.records()) {
                    consumer.accept(record.withoutTokenGaps());
                }
                folding.add(part, TokenEventsView.of(record));
            }
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
     * folding, a whole line's token events are folded into {@code part}, and the line is
     * {@link #FOLDED}, its index in {@code folded}, or, where the folding wants the records, its
     * record without its token gaps.
     */
    private record Parsed(Object[] items, long[] folded, Object part) {}

    private static Parsed parseLines(byte[] bytes, int length, boolean withoutTokenGaps, Folding<?> folding) {
        List<Object> items = new ArrayList<>(length / 1024 + 16);
        Object part = folding == null ? null : folding.newPart().get();
        long[] folded = new long[folding == null || folding.records() ? 0 : length / 1024 + 16];
        int foldedCount = 0;
        JournalLineScanner.Scratch scratch = new JournalLineScanner.Scratch();
        TokenEventsView view = folding == null ? null : new TokenEventsView();
        int start = 0;
        while (start < length) {
            // A line in the writer's form is scanned from its first byte, which finds where it ends,
            // so its bytes are walked once. Folding, the scanner leaves the token events in its
            // scratch arrays, for the view.
            JournalLine scanned =
                    JournalLineScanner.scanFrom(bytes, start, length, withoutTokenGaps, folding != null, scratch);
            int newline = scanned == null ? -1 : newlineAfter(bytes, scanned.scannedEnd, length);
            int lineLength;
            if (newline >= 0) {
                lineLength = scanned.scannedEnd - start;
            } else {
                scanned = null;
                newline = start;
                while (newline < length && bytes[newline] != '\n') {
                    newline++;
                }
                lineLength = newline - start;
                if (lineLength > 0 && bytes[newline - 1] == '\r') {
                    lineLength--;
                }
            }
            if (scanned == null && isBlank(bytes, start, lineLength)) {
                items.add(BLANK);
            } else {
                boolean folds = false;
                try {
                    JournalLine line = scanned != null ? scanned : JournalDecoder.parse(bytes, start, lineLength);
                    if (folding != null && !line.countsPending) {
                        line.fill(view);
                        // The view has copied the token events: the record keeps the last and the sum.
                        items.add(folding.records() ? line.record(true) : FOLDED);
                        folds = true;
                    } else {
                        RequestRecord record = line.record(withoutTokenGaps);
                        items.add(line.countsPending ? new Provisional(record) : record);
                    }
                } catch (IOException | RuntimeException e) {
                    items.add(new Bad(String.valueOf(e.getMessage())));
                }
                if (folds) {
                    // Outside the line's try: what the fold throws is no fault of the line.
                    folding.add(part, view);
                    if (!folding.records()) {
                        if (foldedCount == folded.length) {
                            folded = Arrays.copyOf(folded, 2 * foldedCount);
                        }
                        folded[foldedCount++] = view.index();
                    }
                }
            }
            start = newline + 1;
        }
        return new Parsed(items.toArray(), Arrays.copyOf(folded, foldedCount), part);
    }

    /** Hands a chunk's records over in order, holding provisional ones back; a bad line is an error once a line follows it. */
    private static void hand(
            Path file,
            Parsed parsed,
            long[] number,
            String[] bad,
            Map<Long, RequestRecord> pending,
            Consumer<RequestRecord> consumer,
            Folding<?> folding)
            throws IOException {
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
                case Bad reason ->
                    bad[0] = file + ":" + number[0] + ": not a valid journal line (" + reason.reason() + ")";
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
            throw new InterruptedIOException("interrupted while reading the journal");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }

    /**
     * Where the line ends whose object ends at {@code end}: its newline, or {@code length} for the
     * chunk's last line, past a carriage return; -1 when anything else follows the object.
     */
    private static int newlineAfter(byte[] bytes, int end, int length) {
        if (end < length && bytes[end] == '\r') {
            end++;
        }
        if (end == length || bytes[end] == '\n') {
            return end;
        }
        return -1;
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
}
