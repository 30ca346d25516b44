package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose disk fills up, with the operating system's own failure: the process runs under a
 * file size limit ({@code ulimit -f}), so a write fails part-way where the limit falls. In the
 * journal the run stops at the first failed write with one line that names the file and the
 * reason and exits 1, the journal holds only whole lines, and {@code llmload report} rebuilds the
 * run from them; in the report files at the end, the same one line and a whole journal.
 */
@Tag("loopback")
@Tag("process")
class FullDiskTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long LIMIT_KIB = 96;
    private static final int REQUESTS = 5_000;

    @TempDir
    Path dir;

    @Test
    void aFailedJournalWriteStopsTheRunInOneLineAndLeavesARebuildableDirectory() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash for ulimit -f");
        Path runDir = dir.resolve("run");
        Path console = dir.resolve("console.log");
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 1, "itlMs", 1, "prefillMsPerToken", 0, "jitter", 0)))) {
            Process process = CliProcess.startUnderLimit(
                    console,
                    "-f " + LIMIT_KIB,
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "8",
                    "--num-requests",
                    Integer.toString(REQUESTS),
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "8",
                    "--server-metrics",
                    "off",
                    "--grace",
                    "60s",
                    "--output-dir",
                    runDir.toString());
            assertThat(process.waitFor(180, TimeUnit.SECONDS))
                    .as("the run ended")
                    .isTrue();
            String output = Files.readString(console);
            assertThat(process.exitValue()).as(output).isEqualTo(Main.EXIT_CANNOT_START);

            Path journal = runDir.resolve("requests.jsonl");
            List<String> errors =
                    output.lines().filter(l -> l.startsWith("llmload: ")).toList();
            assertThat(errors).as(output).hasSize(1);
            assertThat(errors.getFirst())
                    .contains("cannot write " + journal)
                    .contains("File too large")
                    .contains("llmload report " + runDir);
            assertThat(output).doesNotContain("Exception").doesNotContain("\tat ");

            // Only whole lines: the line cut short was cut off the file.
            String text = Files.readString(journal);
            assertThat(text).endsWith("\n");
            List<String> lines = text.lines().toList();
            for (String line : lines) {
                assertThat(JSON.readTree(line).get("outcome").asText()).isEqualTo("success");
            }
            assertThat(lines.size()).isPositive().isLessThan(REQUESTS);
            assertThat(Files.size(journal)).isLessThanOrEqualTo(LIMIT_KIB * 1024);
            // The run stopped at the first failed write: the journal is full up to its last line's length.
            assertThat(Files.size(journal) + 2L * lines.getLast().length() + 2).isGreaterThan(LIMIT_KIB * 1024);
            assertThat(runDir.resolve("report.json")).doesNotExist();
            assertThat(output).doesNotContain("llmload benchmark result");

            assertThat(Main.execute("report", runDir.toString())).isZero();
            JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
            assertThat(report.at("/results/requests/attempted").asLong()).isEqualTo(lines.size());
            assertThat(report.at("/results/requests/succeeded").asLong()).isEqualTo(lines.size());
        }
    }

    @Test
    void aReportThatCannotBeWrittenSaysSoInOneLineAndTheJournalRebuildsIt() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash for ulimit -f");
        Path runDir = dir.resolve("run");
        Path console = dir.resolve("console.log");
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 1, "itlMs", 1, "prefillMsPerToken", 0, "jitter", 0)))) {
            // Room for the journal of 20 requests, none for the HTML report.
            Process process = CliProcess.startUnderLimit(
                    console,
                    "-f 48",
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "4",
                    "--num-requests",
                    "20",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "8",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    runDir.toString());
            assertThat(process.waitFor(180, TimeUnit.SECONDS))
                    .as("the run ended")
                    .isTrue();
            String output = Files.readString(console);
            assertThat(process.exitValue()).as(output).isEqualTo(Main.EXIT_CANNOT_START);
            List<String> errors =
                    output.lines().filter(l -> l.startsWith("llmload: ")).toList();
            assertThat(errors).as(output).hasSize(1);
            assertThat(errors.getFirst())
                    .contains("cannot write the report in " + runDir)
                    .contains("File too large")
                    .contains("llmload report " + runDir);
            assertThat(output).doesNotContain("Exception");
            // What the report says needs no disk: the console has it, before the one line.
            assertThat(output).contains("llmload benchmark result").contains("Successful requests:");
            assertThat(output.indexOf("llmload benchmark result")).isLessThan(output.indexOf(errors.getFirst()));
            assertNoTemporaryFiles(runDir);
            assertThat(Files.readAllLines(runDir.resolve("requests.jsonl"))).hasSize(20);

            assertThat(Main.execute("report", runDir.toString())).isZero();
            JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
            assertThat(report.at("/results/requests/succeeded").asLong()).isEqualTo(20);
        }
    }

    @Test
    void aDiskFullBeforeTheLoadIsOneLineAndLeavesNoTemporaryFile() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash for ulimit -f");
        Path runDir = dir.resolve("run");
        Path console = dir.resolve("console.log");
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 1, "itlMs", 1, "prefillMsPerToken", 0, "jitter", 0)))) {
            // 2 KiB: less than run.json, the first file a run writes.
            Process process = CliProcess.startUnderLimit(
                    console,
                    "-f 2",
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "3",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "8",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    runDir.toString());
            assertThat(process.waitFor(180, TimeUnit.SECONDS))
                    .as("the run ended")
                    .isTrue();
            String output = Files.readString(console);
            assertThat(process.exitValue()).as(output).isEqualTo(Main.EXIT_CANNOT_START);
            List<String> errors =
                    output.lines().filter(l -> l.startsWith("llmload: ")).toList();
            assertThat(errors)
                    .as(output)
                    .singleElement()
                    .asString()
                    .contains("cannot write " + runDir.resolve("run.json"))
                    .contains("File too large");
            assertThat(output).doesNotContain("Exception").doesNotContain("\tat ");
            assertNoTemporaryFiles(runDir);
            assertThat(runDir.resolve("requests.jsonl")).doesNotExist();
        }
    }

    private static void assertNoTemporaryFiles(Path runDir) throws IOException {
        try (Stream<Path> files = Files.list(runDir)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp"));
        }
    }
}
