package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad data stops {@code llmload run} with one line naming the file (and line, where there is
 * one) before any request is sent: the simulator's ground-truth log stays empty.
 */
@Tag("loopback")
class BadDataTest {

    @TempDir
    Path dir;

    private record Outcome(int exitCode, String err, long requestsSeen) {}

    private Outcome runAgainstSimulator(String dataFlag, Path file, String... more) throws Exception {
        Path truth = dir.resolve("truth.jsonl");
        StringWriter err = new StringWriter();
        int code;
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "groundTruth", truth.toString())))) {
            var commandLine = Main.commandLine();
            commandLine.setOut(new PrintWriter(new StringWriter(), true));
            commandLine.setErr(new PrintWriter(err, true));
            List<String> args = new ArrayList<>(List.of(
                    "run",
                    "--url",
                    sim.url(),
                    dataFlag,
                    file.toString(),
                    "--num-requests",
                    "5",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("run").toString()));
            args.addAll(List.of(more));
            code = commandLine.execute(args.toArray(String[]::new));
        }
        // Closing the simulator flushed its log: a line per request it saw.
        long seen = Files.exists(truth)
                ? Files.readAllLines(truth).stream().filter(l -> !l.isBlank()).count()
                : 0;
        return new Outcome(code, err.toString(), seen);
    }

    private static void assertStoppedWithOneLine(Outcome outcome, String... fragments) {
        assertThat(outcome.exitCode()).isNotZero();
        assertThat(outcome.err().strip().lines().count())
                .as("stderr: %s", outcome.err())
                .isEqualTo(1);
        assertThat(outcome.err())
                .doesNotContain("Exception")
                .doesNotContain("\tat ")
                .contains(fragments);
        assertThat(outcome.requestsSeen()).as("requests the simulator saw").isZero();
    }

    @Test
    void malformedJsonlNamesFileAndLine() throws Exception {
        Path data = dir.resolve("bad.jsonl");
        Files.writeString(data, "{\"prompt\": \"hello\"}\n{\"prompt\": \"unterminated\n{\"prompt\": \"x\"}\n");

        assertStoppedWithOneLine(runAgainstSimulator("--dataset", data), "bad.jsonl:2:");
    }

    @Test
    void shareGptWithoutConversationsNamesFileAndLine() throws Exception {
        Path data = dir.resolve("share.json");
        Files.writeString(
                data,
                "[\n{\"conversations\": [{\"from\": \"human\", \"value\": \"hi\"}, "
                        + "{\"from\": \"gpt\", \"value\": \"hello\"}]},\n{\"id\": \"no-conversations\"}\n]\n");

        assertStoppedWithOneLine(runAgainstSimulator("--dataset", data), "share.json:3:", "conversations");
    }

    @Test
    void emptyTraceNamesTheFile() throws Exception {
        Path trace = dir.resolve("trace.csv");
        Files.writeString(trace, "");

        assertStoppedWithOneLine(runAgainstSimulator("--trace", trace), "trace.csv", "empty trace");
    }

    @Test
    void aBadSessionTraceLineIsNamedWithItsNumber() throws Exception {
        Path trace = dir.resolve("agent.jsonl");
        Files.writeString(
                trace,
                "{\"session_id\": \"a\", \"turn\": 1, \"input_tokens\": 5, \"output_tokens\": 2}\n"
                        + "{\"session_id\": \"b\", \"parent_session\": \"x\", \"parent_turn\": 1, \"turn\": 1, "
                        + "\"input_tokens\": 5, \"output_tokens\": 2}\n");

        Outcome outcome = runAgainstSimulator("--trace", trace);
        assertStoppedWithOneLine(outcome, "agent.jsonl:2:", "parent session 'x' is not on an earlier line");
        assertThat(outcome.exitCode())
                .as("a bad data file, as docs/cli.md says")
                .isEqualTo(1);
    }

    @Test
    void aBadAiperfMooncakeLineIsNamedWithItsNumber() throws Exception {
        Path trace = dir.resolve("aiperf.jsonl");
        Files.writeString(
                trace,
                "{\"session_id\": \"a\", \"timestamp\": 0, \"input_length\": 5, \"output_length\": 2}\n"
                        + "{\"session_id\": \"b\", \"delay\": 100, \"input_length\": 5, \"output_length\": 2}\n");

        Outcome outcome = runAgainstSimulator("--trace", trace, "--trace-format", "aiperf-mooncake");
        assertStoppedWithOneLine(outcome, "aiperf.jsonl:2:", "\"delay\" needs a turn before it");
        assertThat(outcome.exitCode()).isEqualTo(1);
    }

    @Test
    void aBadAiperfMultiTurnLineIsNamedWithItsNumber() throws Exception {
        Path trace = dir.resolve("multi.jsonl");
        Files.writeString(
                trace,
                "{\"session_id\": \"a\", \"turns\": [{\"text\": \"hi\", \"output_length\": 2}]}\n"
                        + "{\"session_id\": \"b\", \"turns\": [{\"text\": \"hi\"}, {\"output_length\": 2}]}\n");

        Outcome outcome = runAgainstSimulator("--trace", trace, "--trace-format", "aiperf-multi-turn");
        assertStoppedWithOneLine(outcome, "multi.jsonl:2:", "turn 2: needs \"text\"");
        assertThat(outcome.exitCode()).isEqualTo(1);
    }
}
