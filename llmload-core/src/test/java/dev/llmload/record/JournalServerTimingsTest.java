package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.analysis.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's own timings go into requests.jsonl as reported, and a rebuilt record holds them again. */
class JournalServerTimingsTest {

    @Test
    void serverTimingsSurviveTheJournalAndUnreportedFieldsStayOut(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(Journal.FILE_NAME);
        RequestRecord ollama = Records.withServerTimings(
                Records.ok(0, 0, 0, 50, 70), new ServerTimings(1.334875, 342.546, 4535.599, 4883.583458, -1));
        RequestRecord llamaCpp = Records.withServerTimings(
                Records.ok(1, 0, 0, 50, 70), new ServerTimings(Double.NaN, 41.2, 180.3, Double.NaN, 0));
        RequestRecord openAi = Records.ok(2, 0, 0, 50, 70);
        try (Journal journal = Journal.create(file)) {
            journal.append(ollama);
            journal.append(llamaCpp);
            journal.append(openAi);
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0))
                .contains("\"server_timings\":{\"load_ms\":1.335,\"prefill_ms\":342.546,"
                        + "\"decode_ms\":4535.599,\"total_ms\":4883.583}");
        assertThat(lines.get(1))
                .contains(
                        "\"server_timings\":{\"prefill_ms\":41.2,\"decode_ms\":180.3," + "\"cached_prompt_tokens\":0}");
        assertThat(lines.get(2)).doesNotContain("server_timings");

        List<RequestRecord> read = JournalReader.read(file);
        assertThat(read.get(0).serverTimings()).isEqualTo(new ServerTimings(1.335, 342.546, 4535.599, 4883.583, -1));
        assertThat(read.get(1).serverTimings()).isEqualTo(new ServerTimings(Double.NaN, 41.2, 180.3, Double.NaN, 0));
        assertThat(read.get(2).serverTimings()).isNull();
    }
}
