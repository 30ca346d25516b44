package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Synthetic agent sessions over loopback: a shared system prompt, a subagent after every call but
 * the last, and the join, checked against hand-computed message counts and send times and the
 * simulator's ground-truth log.
 */
@Tag("loopback")
class AgentSessionLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000L;
    /** Two journal times, each rounded to the microsecond on its own. */
    private static final long ROUNDING_NANOS = 2_000L;

    @TempDir
    Path dir;

    @Test
    void subagentsForkAfterEachCallAndTheSessionWaitsForThem() throws Exception {
        Path truth = dir.resolve("truth.jsonl");
        Path out = dir.resolve("run");
        // Per session 3 calls and, after calls 1 and 2, one subagent of 3 calls: 9 requests, so 18
        // requests are two whole sessions, both in flight at once.
        Sessions agents = new Sessions(
                Lengths.parse("--sessions", "3"),
                Lengths.parse("--think-time", "10"),
                2,
                new Sessions.Agent(50, 1.0, Lengths.parse("--subagent-fanout", "1")));
        try (SimServer sim = FixedSimulator.start(3, 1, Map.of("echo", true, "groundTruth", truth.toString()))) {
            RunConfig closed = SimulatorRuns.closedLoop(sim.url(), 2, 18, 16, 4, out);
            SimulatorRuns.run(
                    ScheduleFidelityLoopbackTest.withData(closed, Data.synthetic("16", "4", "cl100k_base"), agents));
        }

        List<RequestRecord> journal = JournalReader.read(out.resolve(Journal.FILE_NAME));
        assertThat(journal).hasSize(18).allMatch(RequestRecord::succeeded);
        Map<String, RequestRecord> turns = new HashMap<>();
        for (RequestRecord r : journal) {
            turns.put(r.session().sessionId() + "." + r.session().turn(), r);
        }
        Map<String, JsonNode> truthById = new HashMap<>();
        for (String line : Files.readAllLines(truth)) {
            JsonNode entry = JSON.readTree(line);
            truthById.put(entry.get("request_id").asText(), entry);
        }
        // Sessions 0 and 3 are the roots; 1 and 2, 4 and 5 their subagents after calls 1 and 2.
        for (long root : new long[] {0, 3}) {
            long first = root + 1;
            long second = root + 2;
            Map<String, Integer> messages = Map.of(
                    root + ".1",
                    2,
                    root + ".2",
                    4,
                    root + ".3",
                    6,
                    first + ".1",
                    4,
                    first + ".2",
                    6,
                    first + ".3",
                    8,
                    second + ".1",
                    6,
                    second + ".2",
                    8,
                    second + ".3",
                    10);
            messages.forEach((turn, count) -> assertThat(truthById
                            .get(turns.get(turn).requestId())
                            .get("num_messages")
                            .asInt())
                    .as("messages of session.turn %s", turn)
                    .isEqualTo(count));
            // A subagent starts as soon as the answer it forks from has ended.
            assertThat(intended(turns, first + ".1")).isCloseTo(end(turns, root + ".1"), within(ROUNDING_NANOS));
            assertThat(intended(turns, first + ".2"))
                    .isCloseTo(end(turns, first + ".1") + 10 * MS, within(ROUNDING_NANOS));
            // The join: the root's next call follows its subagent's last answer and the tool wait.
            assertThat(intended(turns, root + ".2"))
                    .isCloseTo(end(turns, first + ".3") + 10 * MS, within(ROUNDING_NANOS));
            assertThat(intended(turns, second + ".1")).isCloseTo(end(turns, root + ".2"), within(ROUNDING_NANOS));
            assertThat(intended(turns, root + ".3"))
                    .isCloseTo(end(turns, second + ".3") + 10 * MS, within(ROUNDING_NANOS));
            // The system prompt of 50 tokens and the task of 16, plus the chat template's few.
            assertThat(truthById
                            .get(turns.get(root + ".1").requestId())
                            .get("prompt_tokens")
                            .asInt())
                    .isBetween(66, 66 + 12);
        }
    }

    private static long intended(Map<String, RequestRecord> turns, String turn) {
        return turns.get(turn).timings().intendedSendNanos();
    }

    private static long end(Map<String, RequestRecord> turns, String turn) {
        return turns.get(turn).timings().endNanos();
    }
}
