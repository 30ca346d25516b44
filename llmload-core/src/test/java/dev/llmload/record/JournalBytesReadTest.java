package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The journal read from its bytes (lines found in the bytes, numbers as digits) gives each record
 * exactly as Jackson's parse of the line as a String does, whatever form a line's JSON takes.
 */
// Each method reads files of its own (its own temporary directory): side by side they keep both cores busy.
@Execution(ExecutionMode.CONCURRENT)
class JournalBytesReadTest {

    private static final String LINE = "{\"index\":%d,\"request_id\":\"r-%d\",\"warmup\":false,\"outcome\":\"success\","
            + "\"http_status\":200,\"streamed\":true,\"input_tokens\":16,\"input_tokens_source\":\"server\","
            + "\"output_tokens\":3,\"output_tokens_source\":\"server\",\"finish_reason\":\"stop\","
            + "\"intended_send_ms\":%s,\"sent_ms\":%s,\"first_byte_ms\":2.0,\"ttft_ms\":3.25,\"ttfc_ms\":null,"
            + "\"e2e_latency_ms\":9.0,\"end_ms\":9.5,\"token_times_ms\":[%s],\"token_counts\":[1,1,1]%s}";

    @TempDir
    Path dir;

    private static String line(int i, String intended, String sent, String times, String extra) {
        return String.format(LINE, i, i, intended, sent, times, extra);
    }

    @Test
    void everyFormOfALineReadsAsItsStringParseDoes() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(line(0, "0.0", "0.11", "3.25,4.5,9.0", ""));
        lines.add(line(1, "1", "1.5e0", "3.2501,4.0E1,-0.125", ""));
        lines.add(line(2, "123456789.123", "123456789.124", "0.001,0.01,0.1", ",\"unknown\":{\"a\":[1,2]}"));
        lines.add(line(3, "9999999999999.5", "12.3456789", "1,2,3", ""));
        lines.add("  " + line(4, "5.0", "5.5", " 3.0 , 4.0 , 5.0 ", "").replace(",\"warmup\"", " , \"warmup\" "));
        lines.add(line(5, "6.0", "6.5", "7,8,9", ",\"error\":\"caf\u00e9 \\u00e9 \uD83D\uDE00 \\\"quoted\\\"\""));
        // A line longer than a chunk of parsing, and enough lines for many chunks, cut anywhere. The
        // reader cuts its chunks (4 MiB) at their last newline and carries the rest, so the parsers
        // only meet whole lines: what the lines' count adds is chunks, and with these 24,000 (about
        // 10 MiB) and the long line the file makes at least three, a first, a middle and a last, each
        // cut inside a line.
        lines.add(line(6, "7.0", "7.5", "1.0,2.0,3.0", ",\"retry_after\":\"" + "x".repeat(5 << 20) + "\""));
        for (int i = 7; i < 24_000; i++) {
            lines.add(line(i, i + ".5", i + ".75", (i + 1) + ".125," + (i + 2) + ".25," + (i + 3), ""));
        }
        Path file = dir.resolve(Journal.FILE_NAME);
        // CRLF and blank lines between, and no newline after the last line.
        Files.writeString(file, String.join("\r\n\n  \n", lines), StandardCharsets.UTF_8);

        assertThat(Files.size(file)).isGreaterThan(3L << 22);

        List<RequestRecord> read = JournalReader.read(file);
        assertThat(read).hasSize(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            assertThat(JournalEncoder.toJson(read.get(i)))
                    .isEqualTo(JournalEncoder.toJson(
                            JournalDecoder.fromJson(lines.get(i).trim())));
        }
        assertThat(read.get(2).timings().intendedSendNanos()).isEqualTo(123_456_789_123_000L);
        assertThat(read.get(1).timings().tokenEventNanos())
                .containsExactly(1_500_000L + 3_250_000L, 1_500_000L + 40_000_000L, 1_500_000L - 125_000L);
        assertThat(read.get(5).outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void aBadLineIsNamedOnlyWhenALineFollowsIt() throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        String good = line(0, "0.0", "0.5", "1.0,2.0,3.0", "");
        Files.writeString(file, good + "\n" + good.substring(0, 80));
        assertThat(JournalReader.read(file)).hasSize(1);
        Files.writeString(file, good + "\n" + good.substring(0, 80) + "\n\n");
        assertThatThrownBy(() -> JournalReader.read(file))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(file + ":2: not a valid journal line");
    }

    @Test
    void decimalsAreReadAsTheRoundedDoubleGivesThem() {
        java.util.Random random = new java.util.Random(5);
        for (int i = 0; i < 200_000; i++) {
            long micros = random.nextLong(2_000_000_000_000L) * (i % 7 == 0 ? -1 : 1);
            String text = Double.toString(micros / 1000.0);
            long expected = Math.round(Double.parseDouble(text) * 1000.0);
            long read = JournalFormat.decimalMicros(text.toCharArray(), 0, text.length());
            if (read != Long.MIN_VALUE) {
                assertThat(read).as(text).isEqualTo(expected);
            }
        }
        assertThat(JournalFormat.decimalMicros("12.5".toCharArray(), 0, 4)).isEqualTo(12_500);
        assertThat(JournalFormat.decimalMicros("1.0E3".toCharArray(), 0, 5)).isEqualTo(Long.MIN_VALUE);
    }

    /** Records of every kind the writer writes: sessions, failures with any message, retries, server timings. */
    private static List<RequestRecord> writerRecords() {
        java.util.Random random = new java.util.Random(11);
        String[] messages = {
            "HTTP 503: <html>Service Unavailable</html>",
            "caf\u00e9 \"quoted\" \\ back\nslash",
            "no token within 60 s",
            "\uD83D\uDE00 emoji",
            "tab\tand\u001b escape"
        };
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            int events = random.nextInt(40);
            long sent = 1_000_000L * i + random.nextInt(1_000) * 1_000L;
            long[] times = new long[events];
            int[] counts = new int[events];
            long t = sent + 20_000_000L + random.nextInt(1_000_000) * 1_000L;
            for (int k = 0; k < events; k++) {
                times[k] = t;
                counts[k] = 1 + random.nextInt(3);
                t += random.nextInt(30_000) * 1_000L + (random.nextInt(5) == 0 ? 123 : 0);
            }
            boolean failed = i % 7 == 3;
            Outcome outcome = !failed
                    ? Outcome.SUCCESS
                    : i % 2 == 0
                            ? Outcome.Failure.of(FailureClass.HTTP_5XX, messages[i % messages.length])
                            : Outcome.Failure.timeout(TimeoutKind.IDLE, messages[(i + 1) % messages.length]);
            RequestTimings timings = new RequestTimings(
                    sent - 200_000L,
                    sent,
                    i % 5 == 0 ? -1 : sent + 9_000_000L,
                    events == 0 ? -1 : times[0],
                    events == 0 || i % 3 == 0 ? -1 : times[0],
                    t + 1_000_000L,
                    times);
            records.add(new RequestRecord(
                    i,
                    "run-" + i,
                    i < 10,
                    timings,
                    counts,
                    failed ? 503 : 200,
                    outcome,
                    100 + i,
                    i % 2 == 0,
                    java.util.Arrays.stream(counts).sum(),
                    i % 4 == 0 ? TokenSource.LOCAL_TOKENIZER : TokenSource.SERVER,
                    i % 9 == 0 ? null : "length",
                    i % 11 != 0,
                    i % 13 == 0 ? "5" : null,
                    i % 6 == 0 ? new SessionTurn(i / 6, i % 4, i % 12 == 0 ? Long.valueOf(i) : null) : null,
                    i % 17 == 0 ? new ServerTimings(1.5, Double.NaN, 3.25, 4, 64) : null,
                    // Counted, counted without the answer's text, and not counted (an older journal's line).
                    i % 5 == 4
                            ? TextCounts.NONE
                            : new TextCounts(
                                    7 * i,
                                    40 * i + 3,
                                    i % 5 == 2 ? TextCounts.UNKNOWN : 2 * events,
                                    i % 5 == 2 ? TextCounts.UNKNOWN : 9 * events)));
        }
        return records;
    }

    @Test
    void linesAsTheWriterWritesThemReadAsTheirStringParse() throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        List<String> lines = new ArrayList<>();
        try (Journal journal = Journal.create(file)) {
            for (RequestRecord record : writerRecords()) {
                journal.append(record);
                lines.add(JournalEncoder.toJson(record));
            }
        }
        List<RequestRecord> read = JournalReader.read(file);
        assertThat(read).hasSize(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            assertThat(JournalEncoder.toJson(read.get(i)))
                    .isEqualTo(JournalEncoder.toJson(JournalDecoder.fromJson(lines.get(i))));
        }
    }

    /**
     * A line cut anywhere reads as no record: at its end it is dropped (a torn last line), with a line
     * after it it is an error. Cut wherever the cut leaves the reader in a state of its own: at every
     * byte of the numbers, literals and punctuation, but inside a string only after its first
     * character and before its closing quote (a string cut further in is as unterminated as there),
     * and in the middle of an array at every seventh byte (its elements repeat one grammar; every
     * byte of its first two elements and of its last one is cut). Each cut costs two reads of the
     * file: cutting this line at every byte made 725 cuts against these 296, and tried no state
     * these do not.
     */
    @Test
    void noLineCutShortReadsAsARecord() throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        String good = JournalEncoder.toJson(writerRecords().get(21));
        List<Integer> cuts = cutsThatDiffer(good);
        assertThat(cuts).contains(1, good.length() - 1);
        for (int cut : cuts) {
            Files.writeString(file, good + "\n" + good.substring(0, cut));
            assertThat(JournalReader.read(file)).as("cut at %d", cut).hasSize(1);
            Files.writeString(file, good + "\n" + good.substring(0, cut) + "\n" + good + "\n");
            assertThatThrownBy(() -> JournalReader.read(file))
                    .as("cut at %d", cut)
                    .isInstanceOf(IOException.class);
        }
    }

    /**
     * The cuts of {@code line} (a writer's line: no string holds a quote or a bracket) that {@link
     * #noLineCutShortReadsAsARecord} tries.
     */
    private static List<Integer> cutsThatDiffer(String line) {
        // For each character: its place among a string's contents, or -1 outside them.
        int[] inString = new int[line.length()];
        boolean open = false;
        int place = 0;
        for (int i = 0; i < line.length(); i++) {
            boolean quote = line.charAt(i) == '"';
            inString[i] = open && !quote ? place++ : -1;
            if (quote) {
                open = !open;
                place = 0;
            }
        }
        List<Integer> cuts = new ArrayList<>();
        int sampledFrom = Integer.MAX_VALUE;
        int sampledTo = -1;
        for (int cut = 1; cut < line.length(); cut++) {
            if (line.charAt(cut - 1) == '[') {
                int close = line.indexOf(']', cut);
                int second = line.indexOf(',', line.indexOf(',', cut) + 1);
                sampledFrom = second < 0 || second > close ? Integer.MAX_VALUE : second + 1;
                sampledTo = line.lastIndexOf(',', close);
            }
            boolean deepInAString = inString[cut - 1] >= 1 && inString[cut] >= 0;
            boolean inAnArraysMiddle = cut > sampledFrom && cut <= sampledTo && (cut - sampledFrom) % 7 != 0;
            if (!deepInAString && !inAnArraysMiddle) {
                cuts.add(cut);
            }
        }
        return cuts;
    }

    @Test
    void theWritersFormIsScannedAndEveryOtherFormLeftToJackson() throws IOException {
        List<RequestRecord> records = writerRecords();
        byte[] plain = JournalEncoder.toJson(records.get(1)).getBytes(StandardCharsets.UTF_8);
        JournalLine scanned =
                JournalLineScanner.scan(plain, 0, plain.length, false, false, new JournalLineScanner.Scratch());
        assertThat(scanned).isNotNull();
        assertThat(scanned.record().text()).isEqualTo(records.get(1).text());
        // A line with the answer's counts null, and one of an older llmload without any, are the scanner's too.
        for (int older : new int[] {2, 4}) {
            byte[] line = JournalEncoder.toJson(records.get(older)).getBytes(StandardCharsets.UTF_8);
            JournalLine read =
                    JournalLineScanner.scan(line, 0, line.length, false, false, new JournalLineScanner.Scratch());
            assertThat(read).as(new String(line, StandardCharsets.UTF_8)).isNotNull();
            assertThat(read.record().text()).isEqualTo(records.get(older).text());
        }
        assertThat(records.get(1).timings().tokenEventNanos().length).isGreaterThan(1);
        assertThat(JournalLineScanner.scan(plain, 0, plain.length, true, false, new JournalLineScanner.Scratch())
                        .tokenTimes)
                .hasSize(1);
        String[] others = {
            JournalEncoder.toJson(records.get(17)), // server timings
            JournalEncoder.toJson(records.get(3)), // an escaped message
            JournalEncoder.toJson(records.get(1)).replace(",\"warmup\"", ", \"warmup\""),
            JournalEncoder.toJson(records.get(1)).replace("\"index\":1,", "\"index\":1.0,"),
            JournalEncoder.toJson(records.get(1)).replace("}", ",\"new_field\":1}")
        };
        for (String other : others) {
            byte[] bytes = other.getBytes(StandardCharsets.UTF_8);
            assertThat(JournalLineScanner.scan(bytes, 0, bytes.length, false, false, new JournalLineScanner.Scratch()))
                    .as(other)
                    .isNull();
        }
    }

    @Test
    void withoutTokenGapsReadsAsEachRecordMadeCompact() throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        List<String> lines = new ArrayList<>();
        for (RequestRecord record : writerRecords()) {
            lines.add(JournalEncoder.toJson(record));
        }
        // More counts than times, one event, none, and counts before times (left to Jackson).
        lines.add(line(5000, "1.0", "1.5", "2.0,3.0", "")
                .replace("\"token_counts\":[1,1,1]", "\"token_counts\":[2,3,4,5]"));
        lines.add(line(5001, "1.0", "1.5", "2.0", "").replace("\"token_counts\":[1,1,1]", "\"token_counts\":[7,8]"));
        lines.add(line(5002, "1.0", "1.5", "", "").replace("\"token_counts\":[1,1,1]", "\"token_counts\":[]"));
        lines.add(line(5003, "1.0", "1.5", "2.0,3.0", "")
                .replace(
                        ",\"token_times_ms\":[2.0,3.0],\"token_counts\":[1,1,1]",
                        ",\"token_counts\":[4,5,6],\"token_times_ms\":[2.0,3.0]"));
        Files.writeString(file, String.join("\n", lines) + "\n");
        List<RequestRecord> compact = new ArrayList<>();
        JournalReader.forEachWithoutTokenGaps(file, compact::add);
        List<RequestRecord> full = JournalReader.read(file);
        assertThat(compact).hasSize(full.size());
        for (int i = 0; i < full.size(); i++) {
            assertThat(JournalEncoder.toJson(compact.get(i)))
                    .isEqualTo(JournalEncoder.toJson(full.get(i).withoutTokenGaps()));
        }
        assertThat(compact.get(compact.size() - 4).tokenEventCounts()).containsExactly(5);
        assertThat(compact.get(compact.size() - 1).tokenEventCounts()).containsExactly(9);
    }

    @Test
    void whatFollowsALinesObjectEndsItOrLeavesItToJackson() throws IOException {
        List<String> lines = List.of(
                line(0, "0.0", "0.5", "1.0,2.0,3.0", ""),
                line(1, "1.0", "1.5", "1.0,2.0,3.0", ""),
                line(2, "2.0", "2.5", "1.0,2.0,3.0", ""),
                line(3, "3.0", "3.5", "1.0,2.0,3.0", ""));
        Path file = dir.resolve(Journal.FILE_NAME);
        Files.writeString(
                file, lines.get(0) + "\r\r\n" + lines.get(1) + " \n" + lines.get(2) + "\t\r\n" + lines.get(3) + "\r");
        List<RequestRecord> read = JournalReader.read(file);
        assertThat(read).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(JournalEncoder.toJson(read.get(i)))
                    .isEqualTo(JournalEncoder.toJson(JournalDecoder.fromJson(lines.get(i))));
        }
    }

    @Test
    void foldingViewsEachLineAsItsRecordsTokenEvents() throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        List<RequestRecord> records = writerRecords();
        List<String> lines = new ArrayList<>();
        // A provisional line its whole line follows, and one none follows: that one is folded last.
        lines.add(JournalEncoder.toJson(records.get(1)).replaceFirst("}$", ",\"counts_pending\":true}"));
        lines.add(JournalEncoder.toJson(records.get(2)).replaceFirst("}$", ",\"counts_pending\":true}"));
        for (RequestRecord record : records) {
            if (record.index() != 2) {
                lines.add(JournalEncoder.toJson(record));
            }
        }
        // More counts than times, none, counts before times (Jackson's), and enough lines for many
        // chunks: at least three (a first, a middle and a last; asserted below) of the reader's 4 MiB.
        lines.add(line(5000, "1.0", "1.5", "2.0,3.0", "")
                .replace("\"token_counts\":[1,1,1]", "\"token_counts\":[2,3,4,5]"));
        lines.add(line(5002, "1.0", "1.5", "", "").replace("\"token_counts\":[1,1,1]", "\"token_counts\":[]"));
        lines.add(line(5003, "1.0", "1.5", "2.0,3.0", "")
                .replace(
                        ",\"token_times_ms\":[2.0,3.0],\"token_counts\":[1,1,1]",
                        ",\"token_counts\":[4,5,6],\"token_times_ms\":[2.0,3.0]"));
        for (int i = 6000; i < 28_000; i++) {
            lines.add(line(i, i + ".5", i + ".75", (i + 1) + ".125," + (i + 2) + ".25," + (i + 3), ""));
        }
        Files.writeString(file, String.join("\n", lines) + "\n");

        List<String> expected = new ArrayList<>();
        for (RequestRecord record : JournalReader.read(file)) {
            expected.add(describe(TokenEventsView.of(record)));
        }
        List<String> folded = new ArrayList<>();
        int[] parts = {0};
        JournalReader.fold(file, ArrayList<String>::new, (part, events) -> part.add(describe(events)), part -> {
            folded.addAll(part);
            parts[0]++;
        });
        assertThat(folded).isEqualTo(expected);
        assertThat(parts[0]).isGreaterThanOrEqualTo(3);
        assertThat(folded.getLast()).startsWith("2 ");

        // The same fold with the records beside it: the same parts, and the records of a compact
        // read, in its order, each chunk's before its part is merged.
        List<String> compact = new ArrayList<>();
        JournalReader.forEachWithoutTokenGaps(file, record -> compact.add(JournalEncoder.toJson(record)));
        List<String> handed = new ArrayList<>();
        List<String> foldedBeside = new ArrayList<>();
        JournalReader.fold(
                file,
                ArrayList<String>::new,
                (part, events) -> part.add(describe(events)),
                part -> {
                    assertThat(handed).hasSizeGreaterThanOrEqualTo(foldedBeside.size() + part.size());
                    foldedBeside.addAll(part);
                },
                record -> handed.add(JournalEncoder.toJson(record)));
        assertThat(foldedBeside).isEqualTo(expected);
        assertThat(handed).isEqualTo(compact);
    }

    private static String describe(TokenEventsView events) {
        StringBuilder text = new StringBuilder()
                .append(events.index())
                .append(' ')
                .append(events.warmup())
                .append(' ')
                .append(events.succeeded());
        for (int i = 0; i < events.events(); i++) {
            text.append(' ').append(events.timeNanos(i)).append('x').append(events.tokens(i));
        }
        return text.toString();
    }
}
