package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.load.FixedSimulator;
import dev.llmload.record.InputLog;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TextCounts;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The words and characters of each request's prompt and answer over loopback, against what was
 * sent ({@code inputs.jsonl}) and what the simulator streamed back: in echo mode it answers with
 * the prompt's own words in turn, one a token, as many as its ground truth says it generated.
 */
@Tag("loopback")
class TextCountsLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void eachRequestsCountsAreThoseOfTheBodySentAndTheTextStreamed() throws Exception {
        Path truth = dir.resolve("truth.jsonl");
        Path out = dir.resolve("run");
        BenchmarkRun.Result result;
        try (SimServer sim = FixedSimulator.start(2, 1, Map.of("echo", true, "groundTruth", truth.toString()))) {
            result = SimulatorRuns.run(SimulatorRuns.closedLoop(sim.url(), 2, 10, 24, 30, out));
        }
        Map<String, JsonNode> truthById = byRequestId(Files.readAllLines(truth));
        Map<String, JsonNode> sentById = byRequestId(Files.readAllLines(out.resolve(InputLog.FILE_NAME)));
        List<RequestRecord> journal = JournalReader.read(out.resolve(Journal.FILE_NAME));
        assertThat(journal).hasSizeGreaterThanOrEqualTo(10).allMatch(RequestRecord::succeeded);

        List<Integer> measuredOutputCharacters = new ArrayList<>();
        for (RequestRecord record : journal) {
            JsonNode body = sentById.get(record.requestId()).get("body");
            int inputWords = 0;
            int inputCharacters = 0;
            StringBuilder prompt = new StringBuilder();
            for (JsonNode message : body.get("messages")) {
                String content = message.get("content").asText();
                inputWords += words(content);
                inputCharacters += content.codePointCount(0, content.length());
                prompt.append(content);
            }
            // The simulator's echo: " " + each of the prompt's words, in turn, one a token.
            String[] echoed = prompt.toString().strip().split("\\s+");
            int completionTokens =
                    truthById.get(record.requestId()).get("completion_tokens").asInt();
            assertThat(completionTokens).isPositive();
            StringBuilder answer = new StringBuilder();
            for (int i = 0; i < completionTokens; i++) {
                answer.append(' ').append(echoed[i % echoed.length]);
            }
            TextCounts expected = new TextCounts(
                    inputWords, inputCharacters, words(answer.toString()), answer.codePointCount(0, answer.length()));
            assertThat(record.text()).as(record.requestId()).isEqualTo(expected);
            assertThat(record.text().outputWords()).isEqualTo(completionTokens);
            if (!record.warmup()) {
                measuredOutputCharacters.add(expected.outputCharacters());
            }
        }
        var results = result.report().results();
        assertThat(results.outputCharacters().count()).isEqualTo(measuredOutputCharacters.size());
        assertThat(results.outputCharacters().mean())
                .isEqualTo(measuredOutputCharacters.stream()
                        .mapToInt(Integer::intValue)
                        .average()
                        .orElseThrow());
        assertThat(results.inputWords().count()).isEqualTo(measuredOutputCharacters.size());
    }

    /** Whitespace-separated runs, counted without llmload's counter. */
    private static int words(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? 0 : stripped.split("\\s+").length;
    }

    private static Map<String, JsonNode> byRequestId(List<String> lines) throws Exception {
        Map<String, JsonNode> byId = new HashMap<>();
        for (String line : lines) {
            JsonNode entry = JSON.readTree(line);
            byId.put(entry.get("request_id").asText(), entry);
        }
        return byId;
    }
}
