package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.load.ResponseLimits;
import dev.llmload.testsupport.HostLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults of a server that is not llmload's own ({@link HostileServer}, Python's standard library):
 * each one ends in a bounded time, in bounded memory, with a message that names it, and with no
 * more requests sent than it takes to tell.
 */
@Tag("loopback")
@Tag("process")
class IndependentServerFaultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<String> errorLines(String printed) {
        return printed.lines().filter(line -> line.startsWith("llmload: ")).toList();
    }

    /**
     * Tokens without end, as a stream and as a plain body, with every response limit raised far
     * out of the way: the 3 s time limit still ends each request on time, and the client's memory
     * stays within a heap of 160 MiB (an endless body once grew to gigabytes in memory, and an
     * endless stream's millions of token events took minutes to count after the request ended).
     */
    @ParameterizedTest
    @ValueSource(strings = {"endless-sse", "endless-body"})
    @Tag("timing")
    void anEndlessResponseEndsOnTimeInBoundedMemoryWhateverTheLimits(String mode) throws Exception {
        try (HostileServer server = HostileServer.start(dir, mode)) {
            Path runDir = dir.resolve("run");
            Path console = dir.resolve("console.log");
            Process run = CliProcess.start(
                    List.of("-Xmx160m"),
                    null,
                    console,
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "2",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "16",
                    "--request-timeout",
                    "3s",
                    "--max-tokens-factor",
                    "1000000000",
                    "--max-response-bytes",
                    "1000000000000",
                    "--max-event-bytes",
                    "1000000000000",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    runDir.toString());
            boolean ended = run.waitFor(150, TimeUnit.SECONDS);
            if (!ended) {
                run.destroyForcibly();
            }
            String output = Files.readString(console);
            assertThat(ended).as("the run ended: " + output).isTrue();
            assertThat(output)
                    .doesNotContain("OutOfMemoryError")
                    .doesNotContain("heap")
                    .doesNotContain("\tat ");
            assertThat(run.exitValue()).as(output).isEqualTo(RunCommand.EXIT_FAILED_RUN);

            // A response of 64 Ki characters or more is journaled provisionally before its count: the last line wins.
            Map<Integer, JsonNode> byIndex = new TreeMap<>();
            for (String line : Files.readAllLines(runDir.resolve("requests.jsonl"))) {
                JsonNode record = JSON.readTree(line);
                byIndex.put(record.get("index").asInt(), record);
            }
            Collection<JsonNode> records = byIndex.values();
            assertThat(records).hasSize(2);
            for (JsonNode record : records) {
                // Ended by its time limit, or before it by the most llmload holds of one response.
                assertThat(record.get("outcome").asText()).as(record.toString()).isIn("timeout", "protocol");
                // No response held more token events than the ceiling (an endless stream once held millions).
                assertThat(record.get("token_times_ms").size())
                        .isLessThanOrEqualTo(ResponseLimits.MAX_HELD_TOKEN_EVENTS);
                if (record.get("outcome").asText().equals("protocol")) {
                    assertThat(record.get("error").asText()).contains("the most llmload holds of one response");
                }
            }
            double slackMs = HostLoad.slackMs(500);
            for (JsonNode record : records) {
                assertThat(record.get("e2e_latency_ms").asDouble())
                        .as("ended within the 3 s limit, " + HostLoad.describe())
                        .isLessThanOrEqualTo(3000 + slackMs);
            }
        }
    }

    @Test
    void aServerThatRedirectsEveryRequestGetsOnlyTheTestRequestAndTheRunSaysWhereItPointed() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "redirect")) {
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "4",
                    "--num-requests",
                    "200",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "4",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("run").toString());

            assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.EXIT_CANNOT_START);
            assertThat(errorLines(run.err()))
                    .as(run.err())
                    .singleElement()
                    .asString()
                    .contains("HTTP 302 redirect to http://127.0.0.1:9/elsewhere (not followed)")
                    .contains("--url");
            assertThat(server.posts()).as("requests the server saw").isEqualTo(1);
        }
    }

    @Test
    void aServerThatNeverAnswersIsToldAtTheTestRequest() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "silent")) {
            long start = System.nanoTime();
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "8",
                    "--num-requests",
                    "100",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "4",
                    "--request-timeout",
                    "2s",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("run").toString());
            long tookS = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

            assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.EXIT_CANNOT_START);
            assertThat(errorLines(run.err()))
                    .as(run.err())
                    .singleElement()
                    .asString()
                    .contains("no answer to a request for 2 tokens: no complete response within 2000 ms");
            assertThat(server.posts()).as("requests the server saw").isEqualTo(1);
            assertThat(tookS).as("seconds to the refusal").isLessThan(60);
        }
    }

    @Test
    void theStartUpProbeHonoursTheConnectTimeout() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "backlog")) {
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "1",
                    "--connect-timeout",
                    "1s",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("run").toString());

            assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.EXIT_CANNOT_START);
            assertThat(errorLines(run.err()))
                    .as(run.err())
                    .singleElement()
                    .asString()
                    .contains("connection timed out after 1000 ms (--connect-timeout)");
        }
    }

    @Test
    void anUnrequestedGzipBodyIsNamedByItsEncoding() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "gzip")) {
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "3",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "4",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("run").toString());

            assertThat(run.exitCode()).as(run.err()).isEqualTo(RunCommand.EXIT_FAILED_RUN);
            assertThat(run.out())
                    .contains("protocol:")
                    .contains("e.g. the response body is gzip-encoded"
                            + " (Content-Encoding: gzip), which llmload did not ask for and does not decode");
        }
    }

    @Test
    void aSkippedServerMetricsEndpointIsNotedOnce() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "slow")) {
            Path runDir = dir.resolve("run");
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "4",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "8",
                    "--server-metrics",
                    "auto",
                    "--output-dir",
                    runDir.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonNode notes =
                    JSON.readTree(runDir.resolve("report.json").toFile()).get("notes");
            List<String> skipped = new ArrayList<>();
            notes.forEach(note -> {
                if (note.get("kind").asText().equals("server_metrics_skipped")) {
                    skipped.add(note.get("message").asText());
                }
            });
            assertThat(skipped).as(notes.toString()).singleElement().asString().contains("/metrics answered HTTP 404");
            assertThat(run.out().split("\\[server_metrics_skipped\\]", -1))
                    .as(run.out())
                    .hasSize(2);
        }
    }

    /**
     * Two runs started into one directory at the same moment, as two processes: one gets it, the
     * other is refused in one line and writes nothing there, and the one that ran leaves a whole
     * journal and report. Without a claim both passed the emptiness check and wrote one journal.
     */
    @Test
    void twoRunsStartedIntoOneDirectoryAtOnceLeaveOneWholeRun() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "slow")) {
            Path runDir = dir.resolve("shared");
            List<Process> runs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                runs.add(CliProcess.start(
                        dir.resolve("console-" + i + ".log"),
                        "run",
                        "--url",
                        server.url(),
                        "--concurrency",
                        "2",
                        "--num-requests",
                        "10",
                        "--input-tokens",
                        "8",
                        "--output-tokens",
                        "8",
                        "--server-metrics",
                        "off",
                        "--output-dir",
                        runDir.toString()));
            }
            List<Integer> codes = new ArrayList<>();
            List<String> outputs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                boolean ended = runs.get(i).waitFor(150, TimeUnit.SECONDS);
                if (!ended) {
                    runs.get(i).destroyForcibly();
                }
                assertThat(ended).as("run " + i + " ended").isTrue();
                codes.add(runs.get(i).exitValue());
                outputs.add(Files.readString(dir.resolve("console-" + i + ".log")));
            }
            // The second is refused by the claim, or (had it come after the first run's run.json) as not empty.
            assertThat(codes)
                    .as(String.join("\n----\n", outputs))
                    .containsOnlyOnce(0)
                    .containsAnyOf(Main.EXIT_CANNOT_START, Main.EXIT_USAGE);
            String refused = outputs.get(codes.indexOf(0) == 0 ? 1 : 0);
            assertThat(errorLines(refused))
                    .as(refused)
                    .singleElement()
                    .asString()
                    .containsAnyOf("is in use by another llmload run", "is not empty");
            assertThat(refused).doesNotContain("\tat ").doesNotContain("llmload benchmark result");

            List<String> lines = Files.readAllLines(runDir.resolve("requests.jsonl"));
            assertThat(lines).hasSize(10);
            for (String line : lines) {
                assertThat(JSON.readTree(line).get("outcome").asText()).isEqualTo("success");
            }
            JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
            assertThat(report.at("/results/requests/succeeded").asLong()).isEqualTo(10);
            assertThat(server.posts())
                    .as("the test request and the load of one run")
                    .isEqualTo(11);
        }
    }

    /**
     * The same with --overwrite, which skips the emptiness check: the claim alone keeps the second
     * run out. The first is then stopped with SIGTERM rather than waited for (its 30 answers of
     * 0.4 s each would take 12 s), and what it wrote is its own and whole: a report whose counts
     * are its journal's.
     */
    @Test
    void aSecondRunWithOverwriteIsRefusedWhileTheFirstWrites() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "slow")) {
            Path runDir = dir.resolve("shared");
            Process first = CliProcess.start(
                    dir.resolve("first.log"),
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "30",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "8",
                    "--server-metrics",
                    "off",
                    "--overwrite",
                    "--output-dir",
                    runDir.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            // Into its load: a request of its own is on disk.
            while (!hasALine(runDir.resolve("requests.jsonl")) && first.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(first.isAlive())
                    .as(Files.readString(dir.resolve("first.log")))
                    .isTrue();

            CapturedRun second = CapturedRun.of(
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "5",
                    "--server-metrics",
                    "off",
                    "--overwrite",
                    "--output-dir",
                    runDir.toString());

            assertThat(second.exitCode()).as(second.err()).isEqualTo(Main.EXIT_CANNOT_START);
            assertThat(errorLines(second.err()))
                    .singleElement()
                    .asString()
                    .contains("--output-dir " + runDir + " is in use by another llmload run (process " + first.pid()
                            + ")");
            assertThat(first.isAlive())
                    .as("the first run, still sending when the second was refused")
                    .isTrue();
            CliProcess.signal(first, "TERM");
            assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(first.exitValue())
                    .as(Files.readString(dir.resolve("first.log")))
                    .isEqualTo(143);
            List<String> lines = Files.readAllLines(runDir.resolve("requests.jsonl"));
            assertThat(lines).isNotEmpty().hasSizeLessThan(30);
            JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
            assertThat(report.at("/run/interrupted").asBoolean()).isTrue();
            assertThat(report.at("/results/requests/attempted").asLong()).isEqualTo(lines.size());
            List<String> ids = new java.util.ArrayList<>();
            for (String line : lines) {
                ids.add(JSON.readTree(line).get("request_id").asText());
            }
            assertThat(ids).as("one run's requests, each once").doesNotHaveDuplicates();
        }
    }

    private static boolean hasALine(Path file) throws java.io.IOException {
        return Files.exists(file) && Files.readString(file).contains("\n");
    }
}
