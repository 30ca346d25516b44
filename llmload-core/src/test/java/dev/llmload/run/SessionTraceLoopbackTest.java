package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.metrics.SessionCounts;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import dev.llmload.workload.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session trace with subagents replayed over loopback (src/test/resources/dev/llmload/workload/agent-sessions.jsonl):
 * every turn's send time against the hand-computed one from the answers' ends, the join, and
 * the history the simulator's ground-truth log saw.
 */
@Tag("loopback")
class SessionTraceLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000L;
    /** The journal keeps microseconds, each time rounded on its own. */
    private static final long ROUNDING_NANOS = 1_000L;

    @TempDir
    Path dir;

    @Test
    void turnsForksAndJoinsAreSentInOrderAfterTheirAnswersAndPauses() throws Exception {
        Path truth = dir.resolve("truth.jsonl");
        Path out = dir.resolve("run");
        BenchmarkRun.Result result;
        try (SimServer sim = FixedSimulator.start(5, 1, Map.of("echo", true, "groundTruth", truth.toString()))) {
            RunConfig config = RunConfig.builder()
                    .url(sim.url())
                    .load(new Load.Trace(Fixtures.path("agent-sessions.jsonl"), 1.0, null))
                    .warmup("0")
                    .seed(3)
                    .serverMetrics("off")
                    .grace(Duration.ofSeconds(5))
                    .outputDir(out)
                    .ioThreads(2)
                    .build();
            result = SimulatorRuns.run(config);
        }

        List<RequestRecord> journal = JournalReader.read(out.resolve(Journal.FILE_NAME));
        assertThat(journal).hasSize(8).allMatch(RequestRecord::succeeded);
        Map<String, RequestRecord> turns = new HashMap<>();
        String[] names = {"main", "explore", "test", "review"};
        for (RequestRecord r : journal) {
            turns.put(names[(int) r.session().sessionId()] + r.session().turn(), r);
        }
        assertThat(turns)
                .containsOnlyKeys("main1", "main2", "main3", "explore1", "explore2", "test1", "review1", "review2");

        // Root sessions start at their timestamps.
        assertThat(intended(turns, "main1")).isCloseTo(0, within(ROUNDING_NANOS));
        assertThat(intended(turns, "review1")).isCloseTo(100 * MS, within(ROUNDING_NANOS));
        // main's turn 2: tool wait 30 ms and delay 10 ms after its first answer.
        assertThat(intended(turns, "main2")).isCloseTo(end(turns, "main1") + 40 * MS, within(2 * ROUNDING_NANOS));
        // The forks after main's turn 2: explore 5 ms after the answer, test at once.
        assertThat(intended(turns, "explore1")).isCloseTo(end(turns, "main2") + 5 * MS, within(2 * ROUNDING_NANOS));
        assertThat(intended(turns, "test1")).isCloseTo(end(turns, "main2"), within(2 * ROUNDING_NANOS));
        assertThat(intended(turns, "explore2")).isCloseTo(end(turns, "explore1") + 20 * MS, within(2 * ROUNDING_NANOS));
        // The join: main's turn 3 waits for both forks' ends, then its 15 ms tool wait.
        long join = Math.max(end(turns, "explore2"), end(turns, "test1"));
        assertThat(end(turns, "explore2")).isGreaterThan(end(turns, "test1"));
        assertThat(intended(turns, "main3")).isCloseTo(join + 15 * MS, within(2 * ROUNDING_NANOS));
        assertThat(turns.get("main3").timings().sentNanos()).isGreaterThanOrEqualTo(join + 15 * MS - ROUNDING_NANOS);
        // review's turn 2 has an absolute timestamp: 400 ms, or its answer's end if that is later.
        assertThat(intended(turns, "review2"))
                .isCloseTo(Math.max(400 * MS, end(turns, "review1")), within(2 * ROUNDING_NANOS));

        // The session metrics, against the trace and the journal's own times.
        SessionCounts sessions = result.report().results().sessions();
        assertThat(List.of(sessions.sessions(), sessions.turns(), sessions.sessionsAllSucceeded()))
                .containsExactly(4L, 8L, 4L);
        assertThat(sessions.turnsPerSessionMax()).isEqualTo(3);
        assertThat(sessions.byTurn())
                .extracting(SessionCounts.TurnLatency::turn, SessionCounts.TurnLatency::count)
                .containsExactly(tuple(1, 4L), tuple(2, 3L), tuple(3, 1L));
        // A session lasts from its first intended send to its last end; which one is longest depends
        // on how fast the host served them, so the longest is computed from the journal.
        long longest = Math.max(
                Math.max(
                        end(turns, "main3") - intended(turns, "main1"),
                        end(turns, "explore2") - intended(turns, "explore1")),
                Math.max(
                        end(turns, "test1") - intended(turns, "test1"),
                        end(turns, "review2") - intended(turns, "review1")));
        assertThat(sessions.durationMs().max()).isCloseTo(longest / 1e6, within(0.002));
        // main's server time is its own three turns only.
        double mainServerMs = 0;
        for (String turn : List.of("main1", "main2", "main3")) {
            mainServerMs += (end(turns, turn) - turns.get(turn).timings().sentNanos()) / 1e6;
        }
        double mainBetweenMs = (end(turns, "main3") - intended(turns, "main1")) / 1e6 - mainServerMs;
        // Between main's calls: at least its 40 and 15 ms of pauses and both forks' whole run.
        assertThat(mainBetweenMs)
                .isGreaterThanOrEqualTo(55 + (end(turns, "explore2") - end(turns, "main2")) / 1e6 - 0.01);
        // Every session's pauses at least: main's, explore's 20 ms, review's wait for 400 ms.
        double pausesMs = mainBetweenMs + 20 + (400 * MS - end(turns, "review1")) / 1e6;
        assertThat(sessions.betweenCallsMsMean() * 4).isGreaterThanOrEqualTo(pausesMs - 0.01);
        // Turns 2 and 3 resend the turn before: main2, main3, explore2 and review2; the forks'
        // first turns resend main's context up to its second answer.
        long resent = 0;
        long input = 0;
        for (String[] pair : new String[][] {
            {"main1", "main2"},
            {"main2", "main3"},
            {"explore1", "explore2"},
            {"review1", "review2"},
            {"main2", "explore1"},
            {"main2", "test1"}
        }) {
            RequestRecord before = turns.get(pair[0]);
            resent += Math.min(turns.get(pair[1]).inputTokens(), before.inputTokens() + before.outputTokens());
        }
        for (RequestRecord r : journal) {
            input += r.inputTokens();
        }
        assertThat(sessions.intendedPrefixShare()).isCloseTo((double) resent / input, within(1e-9));
        assertThat(sessions.intendedPrefixShare()).isPositive();

        // ITL by turn pools every gap of the turns of that number, read from the journal's token times.
        for (SessionCounts.TurnLatency row : sessions.byTurn()) {
            long gaps = 0;
            for (RequestRecord r : journal) {
                if (r.session().turn() == row.turn()) {
                    gaps += Math.max(0, r.timings().tokenEventNanos().length - 1);
                }
            }
            assertThat(row.itlMs().count()).as("gaps of turn %d", row.turn()).isEqualTo(gaps);
        }
        assertThat(sessions.byTurn().getFirst().itlMs().count()).isPositive();

        // The journal names each subagent's parent; the two tasks are main with its forks, and review.
        for (RequestRecord r : journal) {
            String name = names[(int) r.session().sessionId()];
            assertThat(r.session().parentSessionId())
                    .as("parent of %s", name)
                    .isEqualTo(name.equals("explore") || name.equals("test") ? Long.valueOf(0) : null);
        }
        SessionCounts.Tasks tasks = sessions.tasks();
        assertThat(List.of(tasks.tasks(), tasks.turnsPerTaskMean(), tasks.turnsPerTaskMax()))
                .containsExactly(2L, 4.0, 6);
        double mainTaskMs = (end(turns, "main3") - intended(turns, "main1")) / 1e6;
        double reviewTaskMs = (end(turns, "review2") - intended(turns, "review1")) / 1e6;
        assertThat(tasks.durationMs().max()).isCloseTo(Math.max(mainTaskMs, reviewTaskMs), within(0.002));
        assertThat(tasks.durationMs().min()).isCloseTo(Math.min(mainTaskMs, reviewTaskMs), within(0.002));
        double mainInServerMs = inServerMs(turns, "main1", "main2", "explore1", "explore2", "test1", "main3");
        double reviewInServerMs = inServerMs(turns, "review1", "review2");
        assertThat(tasks.serverMsMean()).isCloseTo((mainInServerMs + reviewInServerMs) / 2, within(1e-6));
        assertThat(tasks.waitingMsMean())
                .isCloseTo((mainTaskMs + reviewTaskMs - mainInServerMs - reviewInServerMs) / 2, within(0.002));
        // The forks ran while main waited: main's task spent less time in the server than its
        // sessions' server times summed.
        assertThat(mainInServerMs).isLessThanOrEqualTo(mainServerMs + serverMs(turns, "explore1", "explore2", "test1"));

        // What the server saw: each turn the history of its own session, a fork its parent's.
        Map<String, JsonNode> truthById = new HashMap<>();
        for (String line : Files.readAllLines(truth)) {
            JsonNode entry = JSON.readTree(line);
            truthById.put(entry.get("request_id").asText(), entry);
        }
        Map<String, Integer> messages = Map.of(
                "main1",
                1,
                "main2",
                3,
                "explore1",
                5,
                "explore2",
                7,
                "test1",
                5,
                "main3",
                5,
                "review1",
                1,
                "review2",
                3);
        messages.forEach((turn, count) -> assertThat(truthById
                        .get(turns.get(turn).requestId())
                        .get("num_messages")
                        .asInt())
                .as("messages of %s", turn)
                .isEqualTo(count));
        JsonNode main2 = truthById.get(turns.get("main2").requestId());
        int context = main2.get("prompt_tokens").asInt()
                + main2.get("completion_tokens").asInt();
        // The fork's prompt is the parent's prompt, its answer and 20 (explore) or 16 (test) new
        // tokens; main's turn 3 adds 10. Template tokens and the re-tokenized answer allow a little slack.
        for (Object[] expected : new Object[][] {{"explore1", 20}, {"test1", 16}, {"main3", 10}}) {
            int prompt = truthById
                    .get(turns.get((String) expected[0]).requestId())
                    .get("prompt_tokens")
                    .asInt();
            assertThat(prompt)
                    .as("prompt tokens of %s", expected[0])
                    .isBetween(context + (int) expected[1] - 2, context + (int) expected[1] + 6);
        }
    }

    /**
     * The time in which at least one of the turns was sent and not yet ended, by a sweep over the
     * sends (one more open) and ends (one fewer): a stretch counts once, however many turns cover it.
     */
    private static double inServerMs(Map<String, RequestRecord> turns, String... names) {
        TreeMap<Long, Integer> changes = new TreeMap<>();
        for (String name : names) {
            changes.merge(turns.get(name).timings().sentNanos(), 1, Integer::sum);
            changes.merge(end(turns, name), -1, Integer::sum);
        }
        long covered = 0;
        int open = 0;
        long since = 0;
        for (Map.Entry<Long, Integer> change : changes.entrySet()) {
            if (open > 0) {
                covered += change.getKey() - since;
            }
            open += change.getValue();
            since = change.getKey();
        }
        return covered / 1e6;
    }

    private static double serverMs(Map<String, RequestRecord> turns, String... names) {
        double sum = 0;
        for (String name : names) {
            sum += (end(turns, name) - turns.get(name).timings().sentNanos()) / 1e6;
        }
        return sum;
    }

    private static long intended(Map<String, RequestRecord> turns, String turn) {
        return turns.get(turn).timings().intendedSendNanos();
    }

    private static long end(Map<String, RequestRecord> turns, String turn) {
        return turns.get(turn).timings().endNanos();
    }
}
