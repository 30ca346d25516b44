package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Data;
import dev.llmload.config.Lengths;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Sessions;
import dev.llmload.load.FixedSimulator;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multi-turn sessions over loopback, checked against the simulator's ground-truth log. */
@Tag("loopback")
class SessionLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void laterTurnsCarryTheHistoryAndTheActualAnswersAfterTheThinkTime() throws Exception {
        Path truth = dir.resolve("truth.jsonl");
        Path out = dir.resolve("run");
        try (SimServer sim = FixedSimulator.start(5, 1, Map.of("echo", true, "groundTruth", truth.toString()))) {
            RunConfig closed = SimulatorRuns.closedLoop(sim.url(), 2, 12, 16, 6, out);
            Sessions sessions = new Sessions(Lengths.parse("--sessions", "3"), Lengths.parse("--think-time", "30"), 2);
            BenchmarkRun.Result result = SimulatorRuns.run(
                    ScheduleFidelityLoopbackTest.withData(closed, Data.synthetic("16", "6", "cl100k_base"), sessions));
            assertThat(result.report().schedule().arrivals()).isEqualTo("sessions");
        }

        List<RequestRecord> journal = JournalReader.read(out.resolve(Journal.FILE_NAME));
        assertThat(journal).hasSize(12).allMatch(RequestRecord::succeeded).allMatch(r -> r.session() != null);
        Map<String, JsonNode> truthById = new HashMap<>();
        for (String line : Files.readAllLines(truth)) {
            JsonNode entry = JSON.readTree(line);
            truthById.put(entry.get("request_id").asText(), entry);
        }
        Map<Long, List<RequestRecord>> bySession =
                journal.stream().collect(Collectors.groupingBy(r -> r.session().sessionId()));
        assertThat(bySession).hasSize(4);
        for (List<RequestRecord> turns : bySession.values()) {
            List<RequestRecord> inOrder = turns.stream()
                    .sorted(Comparator.comparingInt(r -> r.session().turn()))
                    .toList();
            assertThat(inOrder).extracting(r -> r.session().turn()).containsExactly(1, 2, 3);
            for (int k = 0; k < inOrder.size(); k++) {
                RequestRecord turn = inOrder.get(k);
                JsonNode server = truthById.get(turn.requestId());
                assertThat(server).as("ground truth of %s", turn.requestId()).isNotNull();
                // Turn k+1 sends k earlier user messages, k answers and the new user message.
                assertThat(server.get("num_messages").asInt()).isEqualTo(2 * k + 1);
                if (k > 0) {
                    RequestRecord previous = inOrder.get(k - 1);
                    JsonNode before = truthById.get(previous.requestId());
                    // The previous prompt, the answer the server gave to it and 16 new tokens.
                    assertThat(server.get("prompt_tokens").asInt())
                            .isGreaterThanOrEqualTo(before.get("prompt_tokens").asInt()
                                    + before.get("completion_tokens").asInt()
                                    + 16
                                    - 2);
                    assertThat(turn.inputTokens()).isGreaterThan(previous.inputTokens());
                    // Sent only after the previous answer ended plus the 30 ms think time.
                    // Both times are kept at microsecond precision, each rounded on its own.
                    assertThat(turn.timings().intendedSendNanos())
                            .isCloseTo(
                                    previous.timings().endNanos() + 30_000_000L,
                                    org.assertj.core.api.Assertions.within(1_000L));
                    assertThat(turn.timings().sentNanos())
                            .isGreaterThanOrEqualTo(previous.timings().endNanos() + 30_000_000L);
                }
            }
        }
        // Read back, the journal keeps the session and turn of every line.
        assertThat(Files.readAllLines(out.resolve(Journal.FILE_NAME)))
                .allMatch(line -> line.contains("\"session_id\":") && line.contains("\"turn\":"));
    }

    @Test
    void aFailedTurnEndsItsSession() throws Exception {
        Path out = dir.resolve("run");
        try (SimServer sim = FixedSimulator.start(2, 1, Map.of("faults", List.of("http-500@0.3"), "seed", 5))) {
            RunConfig closed = SimulatorRuns.closedLoop(sim.url(), 4, 60, 8, 2, out);
            Sessions sessions = new Sessions(Lengths.parse("--sessions", "3"), null, 4);
            SimulatorRuns.run(
                    ScheduleFidelityLoopbackTest.withData(closed, Data.synthetic("8", "2", "cl100k_base"), sessions));
        }

        List<RequestRecord> journal = JournalReader.read(out.resolve(Journal.FILE_NAME));
        Map<Long, List<RequestRecord>> bySession =
                journal.stream().collect(Collectors.groupingBy(r -> r.session().sessionId()));
        long failedEarly = 0;
        for (List<RequestRecord> turns : bySession.values()) {
            List<RequestRecord> inOrder = turns.stream()
                    .sorted(Comparator.comparingInt(r -> r.session().turn()))
                    .toList();
            for (int k = 0; k < inOrder.size() - 1; k++) {
                assertThat(inOrder.get(k).succeeded())
                        .as("only a session's last turn may fail")
                        .isTrue();
            }
            if (!inOrder.getLast().succeeded() && inOrder.size() < 3) {
                failedEarly++;
            }
        }
        assertThat(failedEarly).as("sessions cut short by a failure").isPositive();
    }
}
