package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.record.Journal;
import dev.llmload.report.ReportFiles;
import dev.llmload.schedule.Schedule;
import dev.llmload.sim.server.SimServer;
import dev.llmload.workload.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --num-sessions} over loopback: the sessions in requests.jsonl (read as plain JSON) and in
 * report.json's session metrics are the ones asked for, turn for turn, whatever loop starts them.
 * Each run has a stop of its own after {@link #SAFETY}: a run that did not end at its sessions
 * would otherwise go on, and its journal would then hold far more than asked.
 */
@Tag("loopback")
class NumSessionsLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SAFETY = Duration.ofSeconds(30);

    private static SimServer sim;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        sim = FixedSimulator.start(1, 0.5, Map.of());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    /**
     * 5 sessions of 25 turns, 2 in flight: 125 turns, more than the 100 requests a run with no
     * bound sends, so a default request count would cut the last sessions.
     */
    @Test
    void aClosedLoopStartsExactlyTheSessionsAskedForAndRunsEachWhole() throws Exception {
        Path out = dir.resolve("closed");
        RunConfig config =
                base(out).sessions("25").maxSessions(2).numSessions(5).build();
        assertThat(config.bounds().numRequests()).as("no request count").isNull();
        run(config);

        Map<Long, List<JsonNode>> sessions = bySession(out);
        assertThat(sessions).containsOnlyKeys(0L, 1L, 2L, 3L, 4L);
        sessions.forEach((id, turns) -> assertThat(turns)
                .as("session %s", id)
                .extracting(t -> t.get("turn").asInt())
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.rangeClosed(1, 25).boxed().toList()));
        assertThat(lines(out))
                .hasSize(5 * 25)
                .allMatch(l -> l.get("outcome").asText().equals("success"));
        JsonNode ran = report(out).at("/results/sessions");
        assertThat(ran.get("sessions").asLong()).isEqualTo(5);
        assertThat(ran.get("turns").asLong()).isEqualTo(125);
        assertThat(ran.get("sessions_all_succeeded").asLong()).isEqualTo(5);
        assertThat(ran.at("/tasks/tasks").asLong()).isEqualTo(5);
        assertThat(report(out).at("/config/num_sessions").asInt()).isEqualTo(5);
    }

    /** Given both, the first bound reached ends the starts: here the turns, there the sessions. */
    @Test
    void withARequestCountTooTheFirstBoundReachedEndsTheRun() throws Exception {
        // 2 turns a session: 6 turns are planned once 3 sessions have started, before the fifth.
        Path turnsFirst = dir.resolve("turns-first");
        run(base(turnsFirst).sessions("2").numSessions(5).numRequests(6L).build());
        assertThat(bySession(turnsFirst)).containsOnlyKeys(0L, 1L, 2L);
        assertThat(lines(turnsFirst)).hasSize(6);

        Path sessionsFirst = dir.resolve("sessions-first");
        run(base(sessionsFirst).sessions("2").numSessions(2).numRequests(100L).build());
        assertThat(bySession(sessionsFirst)).containsOnlyKeys(0L, 1L);
        assertThat(lines(sessionsFirst)).hasSize(4);
    }

    /**
     * An open loop at 50 sessions a second and no other bound: the schedule's first 5 arrivals
     * start a session each, at their seeded times, and no later one is scheduled.
     */
    @Test
    void anOpenLoopStartsItsFirstArrivalsOnly() throws Exception {
        Path out = dir.resolve("open");
        RunConfig config = base(out)
                .sessions("2")
                .requestRate(50.0)
                .arrival("poisson")
                .numSessions(5)
                .build();
        assertThat(config.bounds().numRequests()).isNull();
        assertThat(config.bounds().duration()).isNull();
        run(config);

        Map<Long, List<JsonNode>> sessions = bySession(out);
        assertThat(sessions).containsOnlyKeys(0L, 1L, 2L, 3L, 4L);
        assertThat(lines(out)).hasSize(10);
        // The same seed's schedule, longer than the run needs: its first five offsets are the starts.
        long[] offsets = Schedule.build(((Load.Open) config.load()).process(), 50, null, config.seed())
                .offsetsNanos();
        for (long id = 0; id < 5; id++) {
            JsonNode first = sessions.get(id).stream()
                    .filter(t -> t.get("turn").asInt() == 1)
                    .findFirst()
                    .orElseThrow();
            assertThat(first.get("intended_send_ms").asDouble())
                    .as("start of session %s", id)
                    .isCloseTo(offsets[(int) id] / 1e6, within(0.001));
        }
        assertThat(report(out).at("/results/sessions/sessions").asLong()).isEqualTo(5);
    }

    /**
     * Agent sessions of 3 calls with a subagent of 3 calls after each call but the last: a task is
     * a root and 2 subagents, 9 calls. 3 sessions asked for are 3 roots, and their 6 subagents
     * come with them.
     */
    @Test
    void agentSessionsCountTheirRootsAndBringTheirSubagents() throws Exception {
        Path out = dir.resolve("agents");
        run(base(out)
                .sessions("3")
                .thinkTime("2")
                .maxSessions(2)
                .systemPromptTokens(20)
                .subagentProbability(1.0)
                .subagentFanout("1")
                .numSessions(3)
                .build());

        Map<Long, List<JsonNode>> sessions = bySession(out);
        List<Long> roots = new ArrayList<>();
        Map<Long, List<Long>> subagents = new TreeMap<>();
        sessions.forEach((id, turns) -> {
            JsonNode parent = turns.getFirst().get("parent_session_id");
            if (parent == null || parent.isNull()) {
                roots.add(id);
            } else {
                subagents
                        .computeIfAbsent(parent.asLong(), p -> new ArrayList<>())
                        .add(id);
            }
            assertThat(turns).as("session %s", id).hasSize(3);
        });
        assertThat(roots).containsExactly(0L, 3L, 6L);
        assertThat(subagents).containsOnlyKeys(roots.toArray(Long[]::new));
        subagents.values().forEach(forks -> assertThat(forks).hasSize(2));
        assertThat(lines(out)).hasSize(3 * 9);
        JsonNode ran = report(out).at("/results/sessions");
        assertThat(ran.get("sessions").asLong()).isEqualTo(9);
        assertThat(ran.at("/tasks/tasks").asLong()).isEqualTo(3);
    }

    /**
     * The session trace of src/test/resources/dev/llmload/workload/agent-sessions.jsonl: its first
     * root session, main, with its subagents explore and test (6 turns), and not review, which
     * starts 100 ms later.
     */
    @Test
    void aSessionTraceRunsItsFirstSessionsInItsOrder() throws Exception {
        Path out = dir.resolve("trace");
        run(RunConfig.builder()
                .url(sim.url())
                .load(new Load.Trace(Fixtures.path("agent-sessions.jsonl"), 1.0, null))
                .numSessions(1)
                .seed(3)
                .serverMetrics("off")
                .grace(Duration.ofSeconds(5))
                .outputDir(out)
                .ioThreads(1)
                .build());

        // Sessions are numbered in the order of their first lines: main, explore, test, review.
        assertThat(bySession(out)).containsOnlyKeys(0L, 1L, 2L);
        assertThat(lines(out)).hasSize(6);
    }

    private static RunConfig.Builder base(Path out) {
        return RunConfig.builder()
                .url(sim.url())
                .inputTokens("8")
                .outputTokens("3")
                .tokenizer("cl100k_base")
                .seed(7)
                .serverMetrics("off")
                .grace(Duration.ofSeconds(5))
                .outputDir(out)
                .ioThreads(1);
    }

    /** Runs {@code config}, stopped after {@link #SAFETY} should it not end by itself. */
    private static void run(RunConfig config) throws Exception {
        BenchmarkRun run =
                new BenchmarkRun(config, config.target().url().text(), null, "llmload run (test)", "test", r -> {});
        ScheduledExecutorService guard = Executors.newSingleThreadScheduledExecutor();
        try {
            guard.schedule(run::stop, SAFETY.toMillis(), TimeUnit.MILLISECONDS);
            run.execute();
        } finally {
            guard.shutdownNow();
        }
    }

    /** requests.jsonl, each line as JSON. */
    private static List<JsonNode> lines(Path run) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(run.resolve(Journal.FILE_NAME))) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    /** requests.jsonl's lines by their {@code session_id}. */
    private static Map<Long, List<JsonNode>> bySession(Path run) throws Exception {
        Map<Long, List<JsonNode>> sessions = new TreeMap<>();
        for (JsonNode line : lines(run)) {
            sessions.computeIfAbsent(line.get("session_id").asLong(), id -> new ArrayList<>())
                    .add(line);
        }
        return sessions;
    }

    private static JsonNode report(Path run) throws Exception {
        return JSON.readTree(run.resolve(ReportFiles.REPORT_JSON).toFile());
    }
}
