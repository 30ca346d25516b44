package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's own spelling of times and its own rounding stand for the JDK's and the reader's:
 * the numbers of a line are spelled as {@link Double#toString} spells them, and the record
 * {@link Journal#append} returns is the one reading its line back gives.
 */
class JournalPrecisionTest {

    @TempDir
    Path dir;

    @Test
    void millisecondsAreSpelledAsDoubleToStringSpellsThem() {
        List<Long> micros = new ArrayList<>(List.of(
                0L,
                1L,
                -1L,
                5L,
                10L,
                100L,
                999L,
                1000L,
                1001L,
                1010L,
                1100L,
                12_345L,
                120_000L,
                9_999_999_999L,
                -9_999_999_999L,
                10_000_000_000L,
                -10_000_000_000L,
                123_456_789_012L,
                Long.MAX_VALUE / 1000,
                7_000_000L,
                1_000_000_000L));
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            // Spread over every order of magnitude, both signs.
            long value = random.nextLong(1L << random.nextInt(1, 44));
            micros.add(random.nextBoolean() ? value : -value);
        }
        char[] text = new char[32];
        for (long m : micros) {
            int length = JournalFormat.millisText(m, text);
            String expected = Double.toString(m / 1000.0);
            if (length < 0) {
                assertThat(expected).as("%d µs", m).contains("E");
            } else {
                assertThat(new String(text, 0, length)).as("%d µs", m).isEqualTo(expected);
            }
        }
    }

    @Test
    void theRecordAppendReturnsIsTheOneItsLineReadsBackAs() throws IOException {
        SplittableRandom random = new SplittableRandom(7);
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            records.add(randomRecord(i, random));
        }
        records.add(new RequestRecord(
                records.size(),
                "bad-\uD800-text",
                false,
                RequestTimings.neverSent(1_234_567, 2_345_678),
                new int[0],
                0,
                Outcome.Failure.of(FailureClass.PROTOCOL, "lone \uDC00 surrogate"),
                3,
                false,
                0,
                TokenSource.LOCAL_TOKENIZER,
                null,
                false,
                null,
                null,
                null));
        Path file = dir.resolve(Journal.FILE_NAME);
        List<RequestRecord> returned = new ArrayList<>();
        try (Journal journal = Journal.create(file)) {
            for (RequestRecord record : records) {
                returned.add(journal.append(record));
            }
        }
        List<String> lines = Files.readAllLines(file);
        List<RequestRecord> read = JournalReader.read(file);
        assertThat(read).hasSize(records.size());
        for (int i = 0; i < records.size(); i++) {
            RequestRecord back = JournalDecoder.fromJson(lines.get(i));
            assertThat(difference("record " + i, returned.get(i), back)).isNull();
            assertThat(difference("record " + i, returned.get(i), read.get(i))).isNull();
            assertThat(JournalEncoder.toJson(returned.get(i))).isEqualTo(lines.get(i));
        }
        assertThat(returned.getLast().requestId()).isEqualTo("bad-?-text");
    }

    /**
     * Where {@code a} and {@code b} first differ, or null where they hold the same values: records of
     * the same class component by component, each double exactly the same (NaN included, as a
     * record's equals has it), the token times and counts element for element, anything else by its
     * equals: what AssertJ's recursive comparison with those rules checked, without its bookkeeping
     * for each field of the 4,000 pairs (this test took 5.6 s with it and 2.9 s with this, among the
     * module's other pure classes at once).
     */
    static String difference(String path, Object a, Object b) {
        if (a == null || b == null) {
            return a == b ? null : path + ": " + describe(a) + " against " + describe(b);
        }
        if (a.getClass() != b.getClass()) {
            return path + ": a " + a.getClass().getName() + " against a "
                    + b.getClass().getName();
        }
        boolean same;
        if (a instanceof Record) {
            for (RecordComponent component : a.getClass().getRecordComponents()) {
                String found = difference(path + "." + component.getName(), value(component, a), value(component, b));
                if (found != null) {
                    return found;
                }
            }
            return null;
        } else if (a instanceof Double x) {
            same = Double.compare(x, (Double) b) == 0;
        } else if (a instanceof long[] x) {
            same = Arrays.equals(x, (long[]) b);
        } else if (a instanceof int[] x) {
            same = Arrays.equals(x, (int[]) b);
        } else if (a.getClass().isArray()) {
            throw new IllegalArgumentException(path + ": an array of a kind this comparison does not know");
        } else {
            same = a.equals(b);
        }
        return same ? null : path + ": " + describe(a) + " against " + describe(b);
    }

    private static Object value(RecordComponent component, Object record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(component.toString(), e);
        }
    }

    private static String describe(Object value) {
        if (value instanceof long[] x) {
            return Arrays.toString(x);
        }
        return value instanceof int[] x ? Arrays.toString(x) : String.valueOf(value);
    }

    private static RequestRecord randomRecord(int index, SplittableRandom random) {
        // Offsets from the run's start: a warm-up request starts before it (negative), a long run hours after.
        long sent = random.nextLong(-2_000_000_000L, random.nextBoolean() ? 60_000_000_000L : 40_000_000_000_000L);
        long intended = sent - random.nextLong(0, 5_000_000);
        int events = random.nextInt(0, 80);
        long[] tokens = new long[events];
        long at = sent + random.nextLong(1, 500_000_000);
        for (int e = 0; e < events; e++) {
            tokens[e] = at;
            at += random.nextLong(0, 80_000_000);
        }
        int[] counts = new int[events];
        java.util.Arrays.fill(counts, 1);
        long firstByte = random.nextInt(10) == 0 ? RequestTimings.NEVER : sent + random.nextLong(-3_000, 400_000_000);
        long firstToken = events == 0 ? RequestTimings.NEVER : tokens[0];
        long end = at + random.nextLong(0, 1_000_000);
        Outcome outcome = random.nextInt(5) == 0
                ? Outcome.Failure.timeout(TimeoutKind.IDLE, "stream idle \"quoted\"\n" + random.nextInt())
                : Outcome.SUCCESS;
        ServerTimings server = random.nextInt(3) == 0
                ? null
                : new ServerTimings(
                        random.nextDouble() * 1e4,
                        Double.NaN,
                        random.nextDouble() * 1e7,
                        random.nextBoolean() ? Double.POSITIVE_INFINITY : 1.0005,
                        random.nextInt(-3, 100));
        return new RequestRecord(
                index,
                "run-" + index + "-é",
                random.nextBoolean(),
                new RequestTimings(intended, sent, firstByte, firstToken, firstToken, end, tokens),
                counts,
                200,
                outcome,
                random.nextInt(1, 9000),
                random.nextBoolean(),
                events,
                TokenSource.SERVER,
                random.nextBoolean() ? "length" : null,
                true,
                random.nextBoolean() ? "3" : null,
                random.nextBoolean() ? new SessionTurn(index / 3, 1 + index % 3) : null,
                server);
    }
}
