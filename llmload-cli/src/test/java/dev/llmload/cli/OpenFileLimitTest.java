package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * More connections than the process may open files ({@code ulimit -n}) are refused in one line
 * before any load, rather than failing one by one as if the server refused them.
 */
@Tag("loopback")
@Tag("process")
class OpenFileLimitTest {

    @TempDir
    Path dir;

    @Test
    void concurrencyAboveTheOpenFileLimitIsRefusedUpFront() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/limits")), "needs /proc/self/limits (Linux)");
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash for ulimit -n");
        Path console = dir.resolve("console.log");
        try (SimServer sim = SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 1, "itlMs", 1,
                "prefillMsPerToken", 0, "jitter", 0)))) {
            Process process = CliProcess.startUnderLimit(console, "-n 512", "run", "--url", sim.url(),
                    "--concurrency", "2000", "--num-requests", "4000", "--input-tokens", "16", "--output-tokens", "8",
                    "--server-metrics", "off", "--output-dir", dir.resolve("run").toString());
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String output = Files.readString(console);
            assertThat(process.exitValue()).as(output).isEqualTo(Main.EXIT_CANNOT_START);
            List<String> errors = output.lines().filter(l -> l.startsWith("llmload: ")).toList();
            assertThat(errors).as(output).hasSize(1);
            assertThat(errors.getFirst()).contains("--concurrency 2000 keeps 2000 connections open")
                    .contains("may open only 512 files (ulimit -n");
            assertThat(output).doesNotContain("Exception");
            assertThat(dir.resolve("run").resolve("requests.jsonl")).doesNotExist();
        }
    }
}
