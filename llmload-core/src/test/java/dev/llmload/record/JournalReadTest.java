package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a journal back line by line: what was written, a torn last line skipped, any other bad line named. */
class JournalReadTest {

    @TempDir
    Path dir;

    /** @return the records written, at the journal's microsecond precision already */
    private List<RequestRecord> write(Path file) throws IOException {
        RequestRecord success = new RequestRecord(
                0,
                "run-0",
                false,
                new RequestTimings(1_000_000, 1_250_000, 3_000_000, 5_000_000, 6_000_000, 9_000_000, new long[] {
                    5_000_000, 7_000_000, 8_999_000
                }),
                new int[] {1, 2, 1},
                200,
                Outcome.SUCCESS,
                12,
                true,
                4,
                TokenSource.SERVER,
                "length",
                true,
                null,
                new SessionTurn(7, 2, 3L),
                null);
        RequestRecord failure = new RequestRecord(
                1,
                "run-1",
                true,
                RequestTimings.neverSent(2_000_000, 4_000_000),
                new int[0],
                0,
                Outcome.Failure.timeout(TimeoutKind.IDLE, "no token \"for\" 30 s"),
                3,
                false,
                0,
                TokenSource.LOCAL_TOKENIZER,
                null,
                false,
                "5",
                null,
                new ServerTimings(1.5, Double.NaN, 2.25, Double.NaN, 64));
        try (Journal journal = Journal.create(file)) {
            journal.append(success);
            journal.append(failure);
        }
        return List.of(success, failure);
    }

    @Test
    void everyFieldComesBackAsWritten() throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        List<RequestRecord> written = write(file);

        List<RequestRecord> read = JournalReader.read(file);

        assertThat(read).hasSize(2);
        for (int i = 0; i < read.size(); i++) {
            assertThat(read.get(i).timings())
                    .usingRecursiveComparison()
                    .isEqualTo(written.get(i).timings());
            assertThat(read.get(i).tokenEventCounts()).isEqualTo(written.get(i).tokenEventCounts());
            assertThat(JournalEncoder.toJson(read.get(i))).isEqualTo(JournalEncoder.toJson(written.get(i)));
        }
        assertThat(read.get(0).session()).isEqualTo(new SessionTurn(7, 2, 3L));
        assertThat(read.get(1).retryAfter()).isEqualTo("5");
        assertThat(read.get(1).serverTimings().decodeMs()).isEqualTo(2.25);
        assertThat(read.get(1).serverTimings().prefillMs()).isNaN();
        assertThat(read.get(1).serverTimings().cachedPromptTokens()).isEqualTo(64);
        assertThat(read.get(1).outcome()).isEqualTo(Outcome.Failure.timeout(TimeoutKind.IDLE, "no token \"for\" 30 s"));
    }

    /**
     * The encoder writes the fields {@link JournalFormat.Field} defines, in its order (the scanner
     * tries them in that order): a record with every optional field, as a provisional line, has
     * them all.
     */
    @Test
    void theEncoderWritesTheFormatsFieldsInItsOrder() throws IOException {
        RequestRecord every = new RequestRecord(
                3,
                "run-3",
                false,
                new RequestTimings(
                        1_000_000, 1_250_000, 3_000_000, 5_000_000, 6_000_000, 9_000_000, new long[] {5_000_000}),
                new int[] {1},
                504,
                Outcome.Failure.timeout(TimeoutKind.IDLE, "no token for 30 s"),
                12,
                true,
                4,
                TokenSource.SERVER,
                "length",
                true,
                "5",
                new SessionTurn(7, 2, 3L),
                new ServerTimings(1.5, 2, 2.25, 4, 64),
                new TextCounts(5, 30, 1, 6));
        String line = JournalEncoder.toJson(every, true, 1_765_000_000_000_000_000L);

        List<String> keys = new ArrayList<>();
        JsonNode json = new ObjectMapper().readTree(line);
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys)
                .containsExactlyElementsOf(Arrays.stream(JournalFormat.Field.values())
                        .map(field -> field.key)
                        .toList());
        List<String> serverKeys = new ArrayList<>();
        json.get(JournalFormat.Field.SERVER_TIMINGS.key).fieldNames().forEachRemaining(serverKeys::add);
        assertThat(serverKeys)
                .containsExactlyElementsOf(Arrays.stream(JournalFormat.ServerField.values())
                        .map(field -> field.key)
                        .toList());
    }

    @Test
    void aTornLastLineIsSkippedAndABadLineBeforeItIsNamed() throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        write(file);
        Files.writeString(file, "{\"index\":2,\"request_id\":\"run-2\",\"warm", StandardOpenOption.APPEND);
        assertThat(JournalReader.read(file)).hasSize(2);

        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, Files.readString(file).replaceFirst("\"sent_ms\":[0-9.]+,", "") + "\n{}\n");
        assertThatThrownBy(() -> JournalReader.read(bad))
                .isInstanceOf(IOException.class)
                .hasMessage(bad + ":1: not a valid journal line (no sent_ms)");
    }
}
