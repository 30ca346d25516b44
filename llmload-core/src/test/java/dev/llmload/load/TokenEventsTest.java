package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.record.Journal;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TextCounts;
import dev.llmload.record.TokenSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A response's token events as they are packed while it streams: the journal line written from
 * the times they give back is the very line the nanosecond readings gave, and each event's text
 * comes back as it was added, across growth and a switch from Latin-1 to wider characters.
 */
class TokenEventsTest {

    private static final long SEND_NANOS = 7_123_456_789_012L;

    @Test
    void theJournalLineIsTheOneTheNanosecondReadingsGive(@TempDir Path dir) throws Exception {
        Random random = new Random(12);
        TokenEvents events = new TokenEvents();
        List<Long> readings = new ArrayList<>();
        long offset = 0;
        for (int i = 0; i < 3_000; i++) {
            offset += switch (i % 6) {
                case 0 -> random.nextInt(1_000); // often within the same microsecond
                case 1 -> 500; // half microseconds, which round up
                case 2 -> 1_000L * random.nextInt(20) + 499;
                case 3 -> random.nextInt(50_000_000);
                case 4 -> i == 4 ? 40L * 60 * 1_000_000_000 : 3; // 40 minutes: more microseconds than an int holds
                default -> random.nextInt(2_000_000_000);
            };
            readings.add(SEND_NANOS + offset);
            events.add(offset, null, " t");
        }
        long[] exact = readings.stream().mapToLong(Long::longValue).toArray();
        long[] packed = events.times(SEND_NANOS);

        assertThat(packed).hasSize(exact.length);
        assertThat(journalLine(dir.resolve("exact.jsonl"), exact))
                .isEqualTo(journalLine(dir.resolve("packed.jsonl"), packed));
        for (int i = 0; i < exact.length; i++) {
            assertThat(Math.abs(packed[i] - exact[i])).as("event %d", i).isLessThanOrEqualTo(500);
            assertThat(TokenEvents.atMicroseconds(exact[i], SEND_NANOS))
                    .as("a first-token moment that is event %d", i)
                    .isEqualTo(packed[i]);
        }
        assertThat(TokenEvents.atMicroseconds(RequestTimings.NEVER, SEND_NANOS)).isEqualTo(RequestTimings.NEVER);
    }

    /** The one line the journal writes for a request whose token events came at {@code times}. */
    private static String journalLine(Path file, long[] times) throws Exception {
        long end = times[times.length - 1] + 1_000;
        RequestTimings timings = new RequestTimings(
                        SEND_NANOS - 5_000, SEND_NANOS, SEND_NANOS + 100, times[0], times[0], end, times)
                .relativeTo(SEND_NANOS - 1_000_000);
        int[] counts = new int[times.length];
        java.util.Arrays.fill(counts, 1);
        RequestRecord record = new RequestRecord(
                0,
                "r",
                false,
                timings,
                counts,
                200,
                Outcome.SUCCESS,
                4,
                true,
                times.length,
                TokenSource.SERVER,
                "length",
                true,
                null,
                null,
                null);
        try (Journal journal = Journal.create(file)) {
            journal.append(record);
        }
        return Files.readString(file);
    }

    @Test
    void eachEventsTextAcrossGrowthAndWiderCharacters() {
        TokenEvents events = new TokenEvents();
        List<String> added = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String reasoning = i % 5 == 1 ? "r" + i : null;
            String content =
                    i % 10 == 3 ? "" : i % 11 == 0 ? null : i == 300 ? "猫 " + i : i % 7 == 0 ? "é" + i : " t" + i;
            events.add(1_000L * i, reasoning, content);
            added.add((reasoning == null ? "" : reasoning) + (content == null ? "" : content));
        }
        events.add(600_000, null, "x".repeat(70_000));
        added.add("x".repeat(70_000));

        TokenTexts texts = events.texts();
        assertThat(texts.size()).isEqualTo(501).isEqualTo(events.size());
        assertThat(events(texts)).containsExactlyElementsOf(added);
        assertThat(texts.whole()).isEqualTo(String.join("", added));
        assertThat(texts.length()).isEqualTo(texts.whole().length());
        assertThatThrownBy(() -> texts.event(501)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aDroppedTextLeavesTheEventAndItsTime() {
        TokenEvents events = new TokenEvents();
        events.add(1_000, null, " The");
        events.add(2_000, "thinking", " sky is");
        events.dropLastText();
        events.add(3_000, null, " bl\u00fc\u732b");
        events.add(4_000_000_000L, null, " x".repeat(100));
        events.dropLastText();
        events.add(5_000_000_000L, null, " end");

        assertThat(events(events.texts())).containsExactly(" The", "", " bl\u00fc\u732b", "", " end");
        assertThat(events.times(SEND_NANOS))
                .containsExactly(
                        SEND_NANOS + 1_000,
                        SEND_NANOS + 2_000,
                        SEND_NANOS + 3_000,
                        SEND_NANOS + 4_000_000_000L,
                        SEND_NANOS + 5_000_000_000L);
        // The words and characters are of all the text that streamed, the dropped text included, as
        // one text: " The" + "thinking sky is" + " blü猫" + " x" × 100 + " end" is "Thethinking",
        // "sky", "is", "blü猫", 100 × "x", "end": 105 words; 4 + 15 + 5 + 200 + 4 = 228 characters.
        assertThat(events.texts().words()).isEqualTo(105);
        assertThat(events.texts().characters()).isEqualTo(228);
    }

    @Test
    void anEventWithoutTextLeavesTheAnswersCountsUnknown() {
        TokenEvents events = new TokenEvents();
        events.add(1_000, null, " The");
        events.add(2_000, null, "");
        assertThat(events.texts().words()).isEqualTo(TextCounts.UNKNOWN);
        assertThat(events.texts().characters()).isEqualTo(TextCounts.UNKNOWN);
    }

    @Test
    void noEvents() {
        TokenEvents events = new TokenEvents();
        assertThat(events.times(SEND_NANOS)).isEmpty();
        assertThat(events.texts().size()).isZero();
        assertThat(TokenTexts.none().size()).isZero();
        assertThat(TokenTexts.none().whole()).isEmpty();
        assertThat(events.texts().words()).isZero();
        assertThat(events.texts().characters()).isZero();
    }

    /** The events one by one, for assertions. */
    static List<String> events(TokenTexts texts) {
        return IntStream.range(0, texts.size()).mapToObj(texts::event).toList();
    }

    /** Texts of events as a finished response hands them on. */
    static TokenTexts texts(List<String> eventTexts) {
        TokenEvents events = new TokenEvents();
        eventTexts.forEach(text -> events.add(0, null, text));
        return events.texts();
    }
}
