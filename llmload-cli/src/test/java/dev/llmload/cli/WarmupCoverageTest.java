package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A warm-up given as a time says how many requests it covered: those the journal flags as warm-up. */
@Tag("loopback")
class WarmupCoverageTest {

    @TempDir
    Path dir;

    @Test
    void aWarmupByTimeSaysHowManyRequestsItLeftOut() throws Exception {
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 2, "itlMs", 1)))) {
            Path out = dir.resolve("run");
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    sim.url(),
                    "--request-rate",
                    "100",
                    "--num-requests",
                    "40",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "3",
                    "--warmup",
                    "100ms",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    out.toString());
            assertThat(run.exitCode()).as(run.err()).isZero();
            Matcher line = Pattern.compile("Warm-up: (\\d+) requests intended to start in the first 100ms, left out "
                            + "of the statistics")
                    .matcher(run.out());
            assertThat(line.find()).as(run.out()).isTrue();
            long flagged = Files.readAllLines(out.resolve("requests.jsonl")).stream()
                    .filter(l -> l.contains("\"warmup\":true"))
                    .count();
            assertThat(Long.parseLong(line.group(1))).isEqualTo(flagged).isPositive();
        }
    }
}
