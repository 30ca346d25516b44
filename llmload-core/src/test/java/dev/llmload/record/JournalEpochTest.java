package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's epoch nanoseconds ({@code sent_epoch_ns}, {@code first_byte_epoch_ns},
 * {@code end_epoch_ns}): the run's start on the wall clock plus each moment's offset, exactly;
 * written for the reader of the file, skipped by both readers, and absent from a line of a journal
 * without them, which still reads.
 */
class JournalEpochTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;

    /** Sent 1.5 ms after the run's start, head at +2 ms, tokens at +3 and +4 ms, ended at +4.25 ms. */
    private static RequestRecord record() {
        long sent = 1_500_000;
        return new RequestRecord(
                0,
                "r-0",
                false,
                new RequestTimings(MS, sent, sent + 2 * MS, sent + 3 * MS, sent + 3 * MS, sent + 4_250_000, new long[] {
                    sent + 3 * MS, sent + 4 * MS
                }),
                new int[] {1, 1},
                200,
                Outcome.SUCCESS,
                16,
                true,
                2,
                TokenSource.SERVER,
                "stop",
                true,
                null,
                null,
                null);
    }

    @Test
    void epochNanosAreTheOriginPlusEachOffsetAndTheReadersSkipThem() throws IOException {
        long origin = 1_765_000_000_123_456_789L;
        String line = JournalEncoder.toJson(record(), false, origin);
        JsonNode json = JSON.readTree(line);
        assertThat(json.path("sent_epoch_ns").asLong()).isEqualTo(origin + 1_500_000);
        assertThat(json.path("first_byte_epoch_ns").asLong()).isEqualTo(origin + 3_500_000);
        assertThat(json.path("end_epoch_ns").asLong()).isEqualTo(origin + 5_750_000);
        // The existing fields stay as they were: the line without the epoch fields is the old line.
        assertThat(line.replaceAll(",\"(sent|first_byte|end)_epoch_ns\":[0-9]+", ""))
                .isEqualTo(JournalEncoder.toJson(record()));

        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        JournalLine scanned =
                JournalLineScanner.scan(bytes, 0, bytes.length, false, false, new JournalLineScanner.Scratch());
        assertThat(scanned)
                .as("the writer's form stays on the scanner's fast path")
                .isNotNull();
        assertThat(scanned.record()).usingRecursiveComparison().isEqualTo(JournalDecoder.fromJson(line));
        assertThat(JournalDecoder.fromJson(line))
                .usingRecursiveComparison()
                .isEqualTo(JournalDecoder.fromJson(JournalEncoder.toJson(record())));
    }

    @Test
    void aMomentThatNeverCameIsNull() throws IOException {
        RequestRecord r = record();
        RequestTimings t = r.timings();
        RequestRecord noHead = new RequestRecord(
                r.index(),
                r.requestId(),
                r.warmup(),
                new RequestTimings(
                        t.intendedSendNanos(),
                        t.sentNanos(),
                        RequestTimings.NEVER,
                        RequestTimings.NEVER,
                        RequestTimings.NEVER,
                        t.endNanos(),
                        new long[0]),
                new int[0],
                0,
                Outcome.Failure.of(FailureClass.CONNECT, "refused"),
                16,
                false,
                0,
                TokenSource.SERVER,
                null,
                true,
                null,
                null,
                null);
        JsonNode json = JSON.readTree(JournalEncoder.toJson(noHead, false, 0));
        assertThat(json.path("sent_epoch_ns").asLong()).isEqualTo(1_500_000);
        assertThat(json.get("first_byte_epoch_ns").isNull()).isTrue();
        assertThat(json.path("end_epoch_ns").asLong()).isEqualTo(5_750_000);
    }

    /**
     * A journal anchored to the wall clock: its lines' epoch nanoseconds lie between the wall clock
     * read before and after, and a journal written without (an older llmload's) reads the same records.
     */
    @Test
    void anAnchoredJournalCarriesTheWallClockAndAnOlderOneStillReads() throws IOException {
        Path anchored = dir.resolve("anchored.jsonl");
        Path older = dir.resolve("older.jsonl");
        long before = wallNanos();
        long runStart = System.nanoTime();
        try (Journal journal = Journal.create(anchored);
                Journal plain = Journal.create(older)) {
            journal.anchorWallClock(runStart);
            journal.append(record());
            plain.append(record());
        }
        long after = wallNanos();
        JsonNode json = JSON.readTree(Files.readAllLines(anchored).getFirst());
        assertThat(json.path("sent_epoch_ns").asLong()).isBetween(before + 1_500_000 - MS, after + 1_500_000 + MS);
        assertThat(json.path("end_epoch_ns").asLong()
                        - json.path("sent_epoch_ns").asLong())
                .isEqualTo(4_250_000);
        assertThat(JSON.readTree(Files.readAllLines(older).getFirst()).has("sent_epoch_ns"))
                .isFalse();
        List<RequestRecord> a = JournalReader.read(anchored);
        List<RequestRecord> b = JournalReader.read(older);
        assertThat(a).usingRecursiveComparison().isEqualTo(b);
    }

    private static long wallNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
