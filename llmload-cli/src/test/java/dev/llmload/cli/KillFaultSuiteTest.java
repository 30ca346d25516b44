package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault injection: real run processes killed with SIGKILL at seeded random moments, against a
 * simulator that also fails some requests on purpose. After every kill the journal holds each
 * request the client finished as one whole line, no more than the server completed (less the
 * run's test request) and fewer only by the requests still in flight or on their way to the
 * journal ({@link #unwritten}), and
 * {@code llmload report} rebuilds the run from it.
 */
@Tag("loopback")
@Tag("process")
@Tag("timing")
class KillFaultSuiteTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CONCURRENCY = 4;
    private static final int KILLS = 4;

    @TempDir
    Path dir;

    @Test
    void sigkillAtRandomMomentsLosesNoFinishedRequest() throws Exception {
        Random moments = new Random(20261204);
        for (int kill = 0; kill < KILLS; kill++) {
            // A fresh simulator per run, so its counters are this run's alone.
            try (SimServer sim = SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 10,
                    "itlMs", 8, "prefillMsPerToken", 0, "jitter", 0, "seed", kill,
                    "faults", List.of("http-500@0.1", "stream-error-after:3@0.1"))))) {
                Path runDir = dir.resolve("run-" + kill);
                Process run = CliProcess.start(dir.resolve("run-" + kill + ".log"), "run", "--url", sim.url(),
                        "--concurrency", String.valueOf(CONCURRENCY), "--num-requests", "400", "--input-tokens", "32",
                        "--output-tokens", "20", "--server-metrics", "off", "--output-dir", runDir.toString());
                int linesBeforeKill = 1 + moments.nextInt(40);
                awaitJournalLines(runDir.resolve("requests.jsonl"), linesBeforeKill, run);
                Thread.sleep(moments.nextInt(300));
                run.destroyForcibly();
                assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();

                List<String> lines = Files.readAllLines(runDir.resolve("requests.jsonl"));
                Set<String> ids = new HashSet<>();
                long succeeded = 0;
                for (String line : lines) {
                    JsonNode record = JSON.readTree(line);
                    assertThat(ids.add(record.get("request_id").asText())).as("each request once").isTrue();
                    succeeded += record.get("outcome").asText().equals("success") ? 1 : 0;
                }
                // The server also counted the run's test request, which is never in the journal.
                long serverSucceeded = serverSucceeded(sim) - 1;
                assertThat(succeeded).as("kill " + kill + ": the journal against the server's count ("
                        + HostLoad.describe() + ")").isBetween(serverSucceeded - unwritten(), serverSucceeded);

                assertThat(Main.execute("report", runDir.toString())).isZero();
                JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
                assertThat(report.at("/run/interrupted").asBoolean()).isTrue();
                assertThat(report.at("/results/requests/attempted").asLong()).isEqualTo(lines.size());
                assertThat(report.at("/results/requests/succeeded").asLong()).isEqualTo(succeeded);
            }
        }
    }

    /**
     * How many requests the server may have completed that the journal cannot yet hold: per slot
     * of the closed loop one whose last bytes the client had not read, and one it had finished
     * that the recorder had not yet written (the event loop sends the next request at once and
     * never waits for a disk); on a busy host the recorder thread may be a little further behind.
     */
    private static long unwritten() {
        return Math.round(2 * CONCURRENCY * HostLoad.factor());
    }

    private static void awaitJournalLines(Path journal, int lines, Process process) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(process.isAlive()).as("the run ended early").isTrue();
            if (Files.exists(journal) && Files.readAllLines(journal).size() >= lines) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the journal never reached " + lines + " lines");
    }

    /** The simulator's own count of requests it finished successfully (its /metrics). */
    private static long serverSucceeded(SimServer sim) throws Exception {
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(sim.url() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        double total = 0;
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith("vllm:request_success_total")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return (long) total;
    }
}
