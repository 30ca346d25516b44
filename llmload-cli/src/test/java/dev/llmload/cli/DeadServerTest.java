package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The target goes away mid-run and comes back on the same port: the closed loop backs off instead
 * of turning into a storm of refused connections, the report notes when the target was away, and
 * the run goes on once it is back.
 */
@Tag("loopback")
@Tag("timing")
class DeadServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static SimServer simulator(int port) {
        Map<String, Object> settings =
                new HashMap<>(Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 5, "prefillMsPerToken", 0, "jitter", 0));
        settings.put("port", port);
        return SimServer.start(SimConfig.load(null, settings));
    }

    @Test
    void aClosedLoopBacksOffWhileTheTargetIsAwayAndTheReportSaysWhen() throws Exception {
        SimServer first = simulator(0);
        int port = first.port();
        Path runDir = dir.resolve("run");
        // The target goes away after the first 20 requests (well under a second in) and is back 2 s
        // later; the backoff (50 ms doubling, at most 2 s) finds it again by about 4 s in, so 7 s
        // leave the run seconds after the outage, which the note must show as ended before the end
        // of the run.
        CompletableFuture<CapturedRun> run = CompletableFuture.supplyAsync(() -> CapturedRun.of(
                "run",
                "--url",
                "http://127.0.0.1:" + port,
                "--concurrency",
                "4",
                "--duration",
                "7s",
                "--input-tokens",
                "8",
                "--output-tokens",
                "8",
                "--server-metrics",
                "off",
                "--output-dir",
                runDir.toString()));
        SimServer second = null;
        boolean firstClosed = false;
        try {
            Path journal = runDir.resolve("requests.jsonl");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(Files.exists(journal) && Files.readAllLines(journal).size() >= 20)
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            first.close();
            firstClosed = true;
            // Away for 2 s: without a backoff a closed loop of 4 makes thousands of refused connections in that time.
            Thread.sleep(2000);
            second = simulator(port);
            CapturedRun result = run.get(120, TimeUnit.SECONDS);
            assertThat(result.exitCode()).as(result.err()).isZero();
        } finally {
            if (!firstClosed) {
                first.close();
            }
            if (second != null) {
                second.close();
            }
        }
        JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
        long refused = report.at("/results/errors/connect/count").asLong();
        // 50 ms doubling to 2 s: at most about ten tries in 2 s, each tried by at most 4 slots.
        assertThat(refused).as("connection failures while the target was away").isLessThan(100);
        // The stopped simulator closes its connections, so the slots streaming at that moment end
        // and try again: refused connections must show. (They once did not: the simulator's loops
        // stopped with their connections open, and the slots waited on them to the end of the run.)
        assertThat(refused)
                .as("connections refused while the target was away: " + report.at("/results/errors"))
                .isPositive();
        JsonNode unreachable = null;
        for (JsonNode note : report.get("notes")) {
            if (note.get("kind").asText().equals("target_unreachable")) {
                unreachable = note;
            }
        }
        assertThat(unreachable).as(report.get("notes").toString()).isNotNull();
        assertThat(unreachable.get("message").asText()).contains(" to t=").doesNotContain("end of the run");
        assertThat(report.at("/results/requests/succeeded").asLong()).isPositive();
    }
}
