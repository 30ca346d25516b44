package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.analysis.Records;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A journal closed whole is sealed with the SHA-256 of its bytes; a changed byte, a torn seal or none are told apart. */
class JournalSealTest {

    @TempDir
    Path dir;

    private Path written(int requests) throws IOException {
        Path file = dir.resolve(Journal.FILE_NAME);
        try (Journal journal = Journal.create(file)) {
            for (int i = 0; i < requests; i++) {
                journal.append(Records.ok(i, 10.0 * i, 10.0 * i + 0.25, 10.0 * i + 40, 10.0 * i + 90.5));
            }
        }
        return file;
    }

    @Test
    void aClosedJournalIsSealedInSha256sumsForm() throws Exception {
        Path file = written(5);

        String seal = Files.readString(JournalSeal.of(file), StandardCharsets.US_ASCII);
        // The digest of the file's bytes as they are on disk, computed here apart from the writer's.
        String expected =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        assertThat(seal).isEqualTo(expected + "  requests.jsonl\n");
        assertThat(JournalSeal.of(file).getFileName().toString()).isEqualTo("requests.jsonl.sha256");
        assertThat(JournalSeal.check(file)).isEqualTo(JournalSeal.Verdict.VERIFIED);
    }

    @Test
    void oneChangedDigitIsTold() throws Exception {
        Path file = written(5);
        byte[] bytes = Files.readAllBytes(file);
        int at = new String(bytes, StandardCharsets.US_ASCII).indexOf("\"sent_ms\":") + "\"sent_ms\":".length();
        bytes[at] = (byte) (bytes[at] == '9' ? '8' : bytes[at] + 1);
        Files.write(file, bytes);

        assertThatThrownBy(() -> JournalSeal.check(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("requests.jsonl.sha256")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aJournalNotClosedHasNoSealAndANewJournalRemovesTheOldOnesSeal() throws Exception {
        Path file = written(3);
        assertThat(JournalSeal.of(file)).exists();

        Journal open = Journal.create(file);
        open.append(Records.ok(0, 0, 0.25, 40, 90.5));
        // As a killed run leaves it: the lines on disk, no seal (neither the old journal's nor a new one).
        assertThat(JournalSeal.of(file)).doesNotExist();
        assertThat(JournalSeal.check(file)).isEqualTo(JournalSeal.Verdict.UNSEALED);
        assertThat(JournalReader.read(file)).hasSize(1);
        open.close();
        assertThat(JournalSeal.check(file)).isEqualTo(JournalSeal.Verdict.VERIFIED);
    }

    @Test
    void aSealThatIsNoChecksumOfTheJournalIsRefused() throws Exception {
        Path file = written(2);
        Files.writeString(JournalSeal.of(file), "not a checksum\n");
        assertThatThrownBy(() -> JournalSeal.check(file))
                .hasMessageContaining("is not a SHA-256 checksum of requests.jsonl");
        Files.writeString(JournalSeal.of(file), "0".repeat(64) + "  other.jsonl\n");
        assertThatThrownBy(() -> JournalSeal.check(file))
                .hasMessageContaining("is not a SHA-256 checksum of requests.jsonl");
    }
}
