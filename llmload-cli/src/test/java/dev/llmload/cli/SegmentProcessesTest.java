package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.report.ReportFiles;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run spread over three real processes, as three hosts would run it: {@code llmload run
 * --segment K/3} with one {@code --start-at}, then {@code llmload merge}. The merged report counts
 * the whole run; a segment of another run is refused in one line.
 */
@Tag("process")
@Tag("loopback")
class SegmentProcessesTest {

    @TempDir
    Path dir;

    @Test
    void threeSegmentProcessesMergeIntoTheWholeRun() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 10, "itlMs", 2, "prefillMsPerToken", 0, "jitter", 0)))) {
            // Far enough ahead for three JVMs to start on a busy machine (a few seconds); whole seconds,
            // as RFC 3339 is written. A segment that starts late still runs and merges (its start error
            // is noted), so the margin buys only a common start, not the outcome.
            String startAt = Instant.now()
                    .plusSeconds(10)
                    .truncatedTo(ChronoUnit.SECONDS)
                    .toString();
            List<Process> hosts = new ArrayList<>();
            List<Path> segments = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                Path out = dir.resolve("segment-" + k);
                segments.add(out);
                hosts.add(CliProcess.start(
                        dir.resolve("segment-" + k + ".log"),
                        "run",
                        "--url",
                        sim.url(),
                        "--request-rate",
                        "30",
                        "--num-requests",
                        "60",
                        "--input-tokens",
                        "32",
                        "--output-tokens",
                        "4",
                        "--seed",
                        "5",
                        "--segment",
                        k + "/3",
                        "--start-at",
                        startAt,
                        "--server-metrics",
                        "off",
                        "--output-dir",
                        out.toString()));
            }
            for (int k = 0; k < 3; k++) {
                assertThat(hosts.get(k).waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(hosts.get(k).exitValue())
                        .as(Files.readString(dir.resolve("segment-" + k + ".log")))
                        .isZero();
            }

            Path merged = dir.resolve("merged");
            List<String> args = new ArrayList<>(List.of("merge", merged.toString()));
            segments.forEach(s -> args.add(s.toString()));
            CapturedRun merge = CapturedRun.of(args.toArray(String[]::new));
            assertThat(merge.exitCode()).as(merge.err()).isZero();
            assertThat(merge.out()).contains("Merged 3 segments (60 requests)");

            JsonNode report =
                    ReportFiles.JSON.readTree(merged.resolve("report.json").toFile());
            assertThat(report.path("results").path("requests").path("attempted").asLong())
                    .isEqualTo(60);
            assertThat(report.path("run").path("segments")).hasSize(3);
            TreeSet<Long> indexes = new TreeSet<>();
            for (String line : Files.readAllLines(merged.resolve("requests.jsonl"))) {
                indexes.add(ReportFiles.JSON.readTree(line).path("index").asLong());
            }
            assertThat(indexes).hasSize(60).first().isEqualTo(0L);
            assertThat(indexes.last()).isEqualTo(59L);

            // A segment of another run (another seed) does not belong: refused in one line, exit 2.
            Path foreign = dir.resolve("foreign");
            Process other = CliProcess.start(
                    dir.resolve("foreign.log"),
                    "run",
                    "--url",
                    sim.url(),
                    "--request-rate",
                    "30",
                    "--num-requests",
                    "60",
                    "--input-tokens",
                    "32",
                    "--output-tokens",
                    "4",
                    "--seed",
                    "6",
                    "--segment",
                    "2/3",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    foreign.toString());
            assertThat(other.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(other.exitValue()).isZero();
            CapturedRun refused = CapturedRun.of(
                    "merge",
                    dir.resolve("refused").toString(),
                    segments.get(0).toString(),
                    segments.get(1).toString(),
                    foreign.toString());
            assertThat(refused.exitCode()).as(refused.err()).isNotZero();
            assertThat(refused.err().strip().lines().count()).as(refused.err()).isEqualTo(1);
            assertThat(refused.err()).contains(foreign.toString()).doesNotContain("\tat ");
        }
    }
}
