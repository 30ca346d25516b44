package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run never writes over another: a given {@code --output-dir} that holds anything is refused
 * unless {@code --overwrite}, one that is a file is refused in one line, and default run
 * directories stay distinct for runs started in the same second.
 */
@Tag("loopback")
@Tag("process")
class RunDirectoryChoiceTest {

    @TempDir
    Path dir;

    /** One simulator for the class: every test's runs are its own, into directories of their own. */
    private static SimServer sim;

    @BeforeAll
    static void startSimulator() {
        sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 2, "prefillMsPerToken", 0, "jitter", 0)));
    }

    @AfterAll
    static void stopSimulator() {
        sim.close();
    }

    private CapturedRun run(Path outputDir, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--url",
                sim.url(),
                "--concurrency",
                "1",
                "--num-requests",
                "2",
                "--input-tokens",
                "8",
                "--output-tokens",
                "2",
                "--server-metrics",
                "off",
                "--output-dir",
                outputDir.toString()));
        args.addAll(List.of(more));
        return CapturedRun.of(args.toArray(String[]::new));
    }

    private static void assertOneLine(String err) {
        assertThat(err.strip().lines().count()).as("stderr: %s", err).isEqualTo(1);
        assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void aNonEmptyOutputDirIsRefusedUnlessOverwrite() throws Exception {
        Path runDir = dir.resolve("taken");
        Files.createDirectories(runDir);
        Files.writeString(runDir.resolve("report.json"), "an earlier run");

        CapturedRun refused = run(runDir);
        assertThat(refused.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLine(refused.err());
        assertThat(refused.err()).contains(runDir.toString()).contains("--overwrite");
        assertThat(Files.readString(runDir.resolve("report.json"))).isEqualTo("an earlier run");

        CapturedRun overwritten = run(runDir, "--overwrite");
        assertThat(overwritten.exitCode()).as(overwritten.err()).isZero();
        assertThat(Files.readString(runDir.resolve("report.json"))).contains("\"schema_version\"");
    }

    @Test
    void anEmptyOutputDirIsUsed() throws Exception {
        Path runDir = Files.createDirectories(dir.resolve("empty"));
        CapturedRun used = run(runDir);
        assertThat(used.exitCode()).as(used.err()).isZero();
        assertThat(runDir.resolve("report.json")).exists();
    }

    @Test
    void anOutputDirThatIsAFileIsOneLine() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        CapturedRun refused = run(file);
        assertThat(refused.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLine(refused.err());
        assertThat(refused.err()).contains("a-file").contains("is a file");
    }

    @Test
    void twoRunsStartedInTheSameSecondGetDirectoriesOfTheirOwn() throws Exception {
        // Every default name the two runs could take in the next minute is taken by an earlier run:
        // each must find a name of its own, and the earlier runs must stay as they were.
        String target = sim.url().replaceFirst("^http://", "").replaceAll("[^A-Za-z0-9.-]+", "_");
        DateTimeFormatter stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneId.systemDefault());
        Path results = Files.createDirectories(dir.resolve("results"));
        Instant now = Instant.now();
        List<Path> earlier = new ArrayList<>();
        for (int s = 0; s < 90; s++) {
            Path taken =
                    Files.createDirectories(results.resolve(stamp.format(now.plusSeconds(s)) + "-" + target + "-c1"));
            Files.writeString(taken.resolve("report.json"), "earlier");
            earlier.add(taken);
        }
        List<Process> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            runs.add(CliProcess.start(
                    dir,
                    dir.resolve("console-" + i + ".log"),
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "2",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "2",
                    "--server-metrics",
                    "off"));
        }
        for (int i = 0; i < runs.size(); i++) {
            assertThat(runs.get(i).waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(runs.get(i).exitValue())
                    .as(Files.readString(dir.resolve("console-" + i + ".log")))
                    .isZero();
        }

        for (Path taken : earlier) {
            assertThat(Files.readString(taken.resolve("report.json"))).isEqualTo("earlier");
        }
        try (Stream<Path> all = Files.list(results)) {
            List<Path> fresh = all.filter(p -> !earlier.contains(p)).toList();
            assertThat(fresh).hasSize(2);
            for (Path run : fresh) {
                assertThat(Files.readString(run.resolve("report.json"))).contains("\"schema_version\"");
            }
        }
    }
}
