package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import dev.llmload.workload.Fixtures;
import dev.llmload.workload.session.TraceSessions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AIPerf's session formats replayed over loopback
 * (src/test/resources/dev/llmload/workload/aiperf-mooncake-sessions.jsonl and aiperf-multi-turn.jsonl):
 * every turn's intended send time against the one computed by hand from the trace and the
 * answers' ends, and the history the simulator's ground-truth log saw.
 */
@Tag("loopback")
class AiperfTraceLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000L;
    /** The journal keeps microseconds, each time rounded on its own. */
    private static final long ROUNDING_NANOS = 1_000L;

    @TempDir
    Path dir;

    private record Replay(Map<String, RequestRecord> turns, Map<String, JsonNode> truth) {

        long intended(String turn) {
            return turns.get(turn).timings().intendedSendNanos();
        }

        long end(String turn) {
            return turns.get(turn).timings().endNanos();
        }

        JsonNode seen(String turn) {
            return truth.get(turns.get(turn).requestId());
        }
    }

    private Replay replay(String fixture, String format, List<String> names, int requests) throws Exception {
        Path truth = dir.resolve("truth.jsonl");
        Path out = dir.resolve("run");
        try (SimServer sim = FixedSimulator.start(5, 1, Map.of("echo", true, "groundTruth", truth.toString()))) {
            RunConfig config = RunConfig.builder()
                    .url(sim.url())
                    .load(new Load.Trace(Fixtures.path(fixture), 1.0, null, format))
                    .outputTokens("3")
                    .warmup("0")
                    .seed(3)
                    .serverMetrics("off")
                    .grace(Duration.ofSeconds(5))
                    .outputDir(out)
                    .ioThreads(2)
                    .build();
            SimulatorRuns.run(config);
        }
        List<RequestRecord> journal = JournalReader.read(out.resolve(Journal.FILE_NAME));
        assertThat(journal).hasSize(requests).allMatch(RequestRecord::succeeded);
        Map<String, RequestRecord> turns = new HashMap<>();
        for (RequestRecord r : journal) {
            turns.put(names.get((int) r.session().sessionId()) + r.session().turn(), r);
        }
        Map<String, JsonNode> seen = new HashMap<>();
        for (String line : Files.readAllLines(truth)) {
            JsonNode entry = JSON.readTree(line);
            seen.put(entry.get("request_id").asText(), entry);
        }
        return new Replay(turns, seen);
    }

    @Test
    void mooncakeSessionsWaitForTheAnswerAndTheirDelay() throws Exception {
        Replay r =
                replay("aiperf-mooncake-sessions.jsonl", TraceSessions.AIPERF_MOONCAKE, List.of("a", "b", "solo"), 6);

        assertThat(r.turns()).containsOnlyKeys("a1", "a2", "a3", "b1", "b2", "solo1");
        // First records at their timestamps: 0, 50 and 80 ms.
        assertThat(r.intended("a1")).isCloseTo(0, within(ROUNDING_NANOS));
        assertThat(r.intended("b1")).isCloseTo(50 * MS, within(ROUNDING_NANOS));
        assertThat(r.intended("solo1")).isCloseTo(80 * MS, within(ROUNDING_NANOS));
        // chat-a: 20 ms after its first answer, then 35 ms after its second.
        assertThat(r.intended("a2")).isCloseTo(r.end("a1") + 20 * MS, within(2 * ROUNDING_NANOS));
        assertThat(r.intended("a3")).isCloseTo(r.end("a2") + 35 * MS, within(2 * ROUNDING_NANOS));
        assertThat(r.turns().get("a3").timings().sentNanos())
                .isGreaterThanOrEqualTo(r.end("a2") + 35 * MS - ROUNDING_NANOS);
        // chat-b's second record has a timestamp: 300 ms, or its answer's end if that is later.
        assertThat(r.intended("b2")).isCloseTo(Math.max(300 * MS, r.end("b1")), within(2 * ROUNDING_NANOS));

        // Each turn carries its session's history with the real answers.
        Map<String, Integer> messages = Map.of("a1", 1, "a2", 3, "a3", 5, "b1", 1, "b2", 3, "solo1", 1);
        messages.forEach(
                (turn, count) -> assertThat(r.seen(turn).get("num_messages").asInt())
                        .as("messages of %s", turn)
                        .isEqualTo(count));
        JsonNode a1 = r.seen("a1");
        int context =
                a1.get("prompt_tokens").asInt() + a1.get("completion_tokens").asInt();
        // a2 adds 10 new tokens to a1's prompt and answer; template tokens allow a little slack.
        assertThat(r.seen("a2").get("prompt_tokens").asInt()).isBetween(context + 10 - 2, context + 10 + 6);
        assertThat(r.seen("a1").get("completion_tokens").asInt()).isEqualTo(4);
    }

    @Test
    void multiTurnSessionsWaitForTheAnswerAndTheirDelay() throws Exception {
        Replay r = replay("aiperf-multi-turn.jsonl", TraceSessions.AIPERF_MULTI_TURN, List.of("s", "r"), 5);

        assertThat(r.turns()).containsOnlyKeys("s1", "s2", "s3", "r1", "r2");
        assertThat(r.intended("s1")).isCloseTo(0, within(ROUNDING_NANOS));
        assertThat(r.intended("r1")).isCloseTo(40 * MS, within(ROUNDING_NANOS));
        assertThat(r.intended("s2")).isCloseTo(r.end("s1") + 25 * MS, within(2 * ROUNDING_NANOS));
        assertThat(r.intended("s3")).isCloseTo(r.end("s2") + 10 * MS, within(2 * ROUNDING_NANOS));
        assertThat(r.intended("r2")).isCloseTo(Math.max(200 * MS, r.end("r1")), within(2 * ROUNDING_NANOS));

        Map<String, Integer> messages = Map.of("s1", 1, "s2", 3, "s3", 5, "r1", 1, "r2", 3);
        messages.forEach(
                (turn, count) -> assertThat(r.seen(turn).get("num_messages").asInt())
                        .as("messages of %s", turn)
                        .isEqualTo(count));
        // Answer lengths: the turn's output_length, else the run's --output-tokens 3.
        assertThat(r.seen("s1").get("completion_tokens").asInt()).isEqualTo(4);
        assertThat(r.seen("r1").get("completion_tokens").asInt()).isEqualTo(5);
        assertThat(r.seen("r2").get("completion_tokens").asInt()).isEqualTo(3);
    }
}
