package dev.llmload.record;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;

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
 *
 * <p>Closed whole, the journal is sealed: its SHA-256 goes into {@code requests.jsonl.sha256}
 * beside it ({@link JournalSeal}), so that a later change to it can be told. A journal whose
 * writer never closed it (the process was killed) or whose write failed has no seal; creating a
 * journal removes the seal of the one it replaces.
 *
 * <p>This class is the writer alone: a line's form is {@link JournalFormat}'s, made by
 * {@link JournalEncoder}; {@link JournalReader} reads a journal back.
 */
public final class Journal implements AutoCloseable {

    public static final String FILE_NAME = "requests.jsonl";

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
    /** The run's start in nanoseconds since the Unix epoch; {@link JournalEncoder#NO_EPOCH} until anchored. */
    private long epochOriginNanos = JournalEncoder.NO_EPOCH;
    /** The SHA-256 of the whole lines written, for the seal. */
    private final MessageDigest written = JournalSeal.digest();

    private Journal(Path file, FileChannel channel, long freeBytes) {
        this.file = file;
        this.channel = channel;
        this.freeBytes = freeBytes;
    }

    public static Journal create(Path file) throws IOException {
        String simulated = System.getProperty(SIMULATED_FREE_BYTES_PROPERTY);
        JournalSeal.remove(file);
        return new Journal(
                file,
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE),
                simulated == null ? Long.MAX_VALUE : Long.parseLong(simulated));
    }

    /**
     * From now on, lines also carry their send, first byte and end as nanoseconds since the Unix
     * epoch ({@code sent_epoch_ns}, {@code first_byte_epoch_ns}, {@code end_epoch_ns}): the wall
     * clock read now, less the {@link System#nanoTime} elapsed since {@code runStartNanos}, is
     * the run's start on the wall clock, and every record's offsets count from it. Call before the
     * first line, on the thread that will write them or before that thread starts.
     *
     * @param runStartNanos the {@link System#nanoTime} reading the records' offsets count from
     */
    public void anchorWallClock(long runStartNanos) {
        long monotonicNow = System.nanoTime();
        java.time.Instant wallNow = java.time.Instant.now();
        anchorWallClockAt(wallNow.minusNanos(monotonicNow - runStartNanos));
    }

    /**
     * From now on, lines carry their times since the Unix epoch as well, counting the records'
     * offsets from {@code origin}, the wall-clock instant of their offset 0; null for lines without
     * them. A merge of segments anchors each segment's records at that segment's own start, one
     * after another, since each segment's offsets count from its own.
     */
    public void anchorWallClockAt(java.time.Instant origin) {
        epochOriginNanos =
                origin == null ? JournalEncoder.NO_EPOCH : origin.getEpochSecond() * 1_000_000_000L + origin.getNano();
    }

    /**
     * Writes one whole line and flushes it to the operating system.
     *
     * @return the record as the journal holds it (times at microsecond precision); keep this one,
     *         so that statistics computed now and from the file later are the same
     */
    public RequestRecord append(RequestRecord record) throws IOException {
        String line = writeLine(JournalEncoder.toJson(record, false, epochOriginNanos));
        // What reading the line back would give, without reading it; a line with a text that
        // does not come back as it is (a lone surrogate, written as '?') is read back as written.
        return JournalEncoder.carriedAsIs(record)
                ? JournalEncoder.atJournalPrecision(record)
                : JournalDecoder.fromJson(new String(line.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
    }

    /**
     * Writes {@code record}'s provisional line, before its tokens are counted: its counts stand
     * until {@link #append} writes the same index's whole line.
     */
    public void appendPending(RequestRecord record) throws IOException {
        writeLine(JournalEncoder.toJson(record, true, epochOriginNanos));
    }

    /** Writes {@code line} as one whole line, or cuts a failed write back to the last whole line. */
    private String writeLine(String line) throws IOException {
        if (failure != null) {
            throw failure;
        }
        byte[] whole = (line + "\n").getBytes(StandardCharsets.UTF_8);
        ByteBuffer bytes = ByteBuffer.wrap(whole);
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
        wholeBytes += whole.length;
        written.update(whole);
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

    /** Closes the file and, when every write went through, seals it; a second close does nothing. */
    @Override
    public void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        channel.close();
        if (failure == null) {
            JournalSeal.write(file, written.digest());
        }
    }
}
