package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that is killed or interrupted loses no finished request: the journal holds every one as a
 * whole line, Ctrl-C and SIGTERM still write a report, and {@code llmload report} rebuilds it.
 */
@Tag("loopback")
@Tag("process")
@Tag("timing")
class NothingLostTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private SimServer sim;

    @BeforeEach
    void startSimulator() {
        // About 0.4 s per request: 40 tokens 10 ms apart, so a run of 200 (21 s) is caught mid-way, and
        // mid-answer, a second or two in.
        sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 20, "itlMs", 10, "prefillMsPerToken", 0, "jitter", 0)));
    }

    @AfterEach
    void stopSimulator() {
        sim.close();
    }

    private Process startRun(Path runDir) throws Exception {
        return CliProcess.start(
                dir.resolve("console.log"),
                "run",
                "--url",
                sim.url(),
                "--concurrency",
                "4",
                "--num-requests",
                "200",
                "--input-tokens",
                "32",
                "--output-tokens",
                "40",
                "--grace",
                "300ms",
                "--server-metrics",
                "off",
                "--output-dir",
                runDir.toString());
    }

    private static List<String> awaitJournalLines(Path runDir, int lines, Process process) throws Exception {
        Path journal = runDir.resolve("requests.jsonl");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(process.isAlive()).as("the run ended early").isTrue();
            if (Files.exists(journal) && Files.readAllLines(journal).size() >= lines) {
                return Files.readAllLines(journal);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the journal never reached " + lines + " lines");
    }

    @Test
    void afterKillMinusNineEveryFinishedRequestIsAWholeLineAndTheRunRebuilds() throws Exception {
        Path runDir = dir.resolve("killed");
        Process process = startRun(runDir);
        awaitJournalLines(runDir, 8, process);
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        List<String> lines = Files.readAllLines(runDir.resolve("requests.jsonl"));
        assertThat(lines.size()).isGreaterThanOrEqualTo(8);
        for (String line : lines) {
            assertThat(JSON.readTree(line).get("outcome").asText()).isEqualTo("success");
        }
        assertThat(runDir.resolve("report.json")).doesNotExist();

        int code = Main.execute("report", runDir.toString());
        assertThat(code).isZero();
        JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
        assertThat(report.at("/run/interrupted").asBoolean()).isTrue();
        assertThat(report.at("/results/requests/attempted").asLong()).isEqualTo(lines.size());
        assertThat(report.at("/results/requests/succeeded").asLong()).isEqualTo(lines.size());
    }

    @Test
    void ctrlCWritesAReportOfWhatFinishedAndExits130() throws Exception {
        // A background job of a non-interactive shell starts with SIGINT ignored, and every process
        // it starts inherits that (POSIX): such a run cannot be interrupted from a terminal at all,
        // and the JVM rightly leaves the signal ignored.
        Assumptions.assumeFalse(
                CliProcess.ignoresSigint(),
                "SIGINT is ignored in this test's environment (a background job), so the run inherits that");
        assertInterruptedBy("INT", 130);
    }

    @Test
    void sigtermWritesAReportOfWhatFinishedAndExits143() throws Exception {
        assertInterruptedBy("TERM", 143);
    }

    private void assertInterruptedBy(String signal, int expectedExit) throws Exception {
        Path runDir = dir.resolve("stopped-" + signal);
        Process process = startRun(runDir);
        awaitJournalLines(runDir, 4, process);
        CliProcess.signal(process, signal);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as(Files.readString(dir.resolve("console.log")))
                .isEqualTo(expectedExit);

        JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
        List<String> lines = Files.readAllLines(runDir.resolve("requests.jsonl"));
        assertThat(report.at("/run/interrupted").asBoolean()).isTrue();
        long attempted = report.at("/results/requests/attempted").asLong();
        assertThat(attempted).isEqualTo(lines.size()).isLessThan(200);
        long cancelled = lines.stream()
                .filter(l -> l.contains("\"outcome\":\"cancelled\""))
                .count();
        assertThat(report.at("/results/requests/succeeded").asLong() + cancelled)
                .isEqualTo(attempted);
        assertThat(Files.readString(dir.resolve("console.log"))).contains("llmload benchmark result");
    }

    @Test
    void rebuildingAFinishedRunReproducesItsReportFiles() throws Exception {
        Path runDir = dir.resolve("finished");
        int code = Main.execute(
                "run",
                "--url",
                sim.url(),
                "--concurrency",
                "4",
                "--num-requests",
                "12",
                "--input-tokens",
                "32",
                "--output-tokens",
                "4",
                "--note",
                "a note, with a comma",
                "--slo",
                "ttft:100",
                "--output-dir",
                runDir.toString());
        assertThat(code).isZero();
        String report = Files.readString(runDir.resolve("report.json"));
        String summary = Files.readString(runDir.resolve("summary.csv"));
        String timeseries = Files.readString(runDir.resolve("timeseries.csv"));

        assertThat(Main.execute("report", runDir.toString())).isZero();

        assertThat(Files.readString(runDir.resolve("report.json"))).isEqualTo(report);
        assertThat(Files.readString(runDir.resolve("summary.csv"))).isEqualTo(summary);
        assertThat(Files.readString(runDir.resolve("timeseries.csv"))).isEqualTo(timeseries);
    }

    @Test
    void reportOfADirectoryThatIsNoRunIsOneLine() {
        assertThat(Main.execute("report", dir.toString())).isEqualTo(Main.EXIT_CANNOT_START);
    }
}
