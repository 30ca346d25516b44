package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.analysis.Saturation;
import dev.llmload.analysis.SteadyState;
import dev.llmload.metrics.ServerView;
import dev.llmload.record.Journal;
import dev.llmload.report.RunDirectory;
import dev.llmload.report.RunReport;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the console says of a real loopback run's server timings, client, saturation and steady
 * state is what the same run's report.json says: each run goes through {@code llmload run} against
 * the simulator, and its printed summary is read against its report.json read back. The
 * measurements themselves are checked in llmload-core ({@code ServerViewReportTest},
 * {@code ClientSelfCheckLoopbackTest}, {@code SaturationLoopbackTest}, {@code SteadyStateLoopbackTest}).
 */
@Tag("loopback")
// A run at twice the simulator's measured capacity must saturate it and one at half must not; and
// whether an open loop settles into a steady window after a start-up depends on the client keeping its schedule.
@Tag("timing")
class ConsoleVerdictsLoopbackTest {

    /**
     * The simulator's batching engine with 4 seats, 8 times as fast as its profile: a capacity
     * (about 150 requests per second) reached quickly, as in SaturationLoopbackTest.
     */
    private static final Map<String, Object> FOUR_SEATS =
            Map.of("speedup", 8.0, "seed", 3, "batching", Map.of("maxNumSeqs", 4));

    private static final Map<String, Object> FIXED =
            Map.of("engine", "fixed", "ttftMs", 20, "itlMs", 2, "prefillMsPerToken", 0, "jitter", 0);

    @TempDir
    Path dir;

    @Test
    void theServersOwnTimingsAndTheClientsVerdictAreThoseOfReportJson() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(null, FIXED))) {
            // llama.cpp's /completion answers with its own timings (prompt_ms, predicted_ms).
            Run run = run(
                    "native",
                    "--url",
                    sim.url().replaceFirst("/v1/?$", ""),
                    "--api",
                    "llamacpp",
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "8",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4");
            ServerView view = run.report().results().serverView();
            assertThat(view).as("the server's own timings reached report.json").isNotNull();
            assertThat(view.requests()).isEqualTo(8);
            assertThat(run.console()).contains("Server's own timings (" + view.requests() + " requests)");
            assertThat(valueOf(run.console(), "Server prefill p50 (ms):"))
                    .isEqualTo(twoDecimals(view.serverFirstTokenMs().p50()));
            assertThat(valueOf(run.console(), "Client TTFT p50, same requests (ms):"))
                    .isEqualTo(twoDecimals(view.clientTtftMs().p50()));

            // Whichever way the client's self-check went on this host, the console says it as the report does.
            String verdict = run.report().client().verdict();
            assertThat(verdict)
                    .startsWith(
                            run.report().client().saturated()
                                    ? "saturated (see the client_saturated note)"
                                    : "kept up, did not limit this run");
            assertThat(run.console()).contains(verdict);
        }
    }

    @Test
    void twiceTheCapacityIsSaturatedAndHalfOfItIsNot() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(null, FOUR_SEATS))) {
            double capacity = run(
                            "capacity",
                            "--url",
                            sim.url(),
                            "--concurrency",
                            "8",
                            "--num-requests",
                            "80",
                            "--input-tokens",
                            "32",
                            "--output-tokens",
                            "24")
                    .report()
                    .results()
                    .requestThroughput();

            Run over = openLoop(sim, 2 * capacity, "over");
            Saturation s = over.report().saturation();
            assertThat(s.saturated())
                    .as("%s at %.1f req/s against a capacity of %.1f", s, 2 * capacity, capacity)
                    .isTrue();
            assertThat(valueOf(over.console(), "Saturated:")).isEqualTo("YES (see notes)");
            assertThat(valueOf(over.console(), "Backlog at last arrival:"))
                    .isEqualTo(
                            s.backlog() + " (" + s.backlogInFlight() + " in flight, " + s.backlogQueued() + " queued)");

            Run under = openLoop(sim, capacity / 2, "under");
            Saturation calm = under.report().saturation();
            assertThat(calm.saturated())
                    .as("%s at %.1f req/s against a capacity of %.1f", calm, capacity / 2, capacity)
                    .isFalse();
            assertThat(valueOf(under.console(), "Saturated:")).isEqualTo("no");
        }
    }

    @Test
    void aSteadyWindowIsPrintedBesideTheWholeRun() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(null, FIXED));
                HttpClient http = HttpClient.newHttpClient()) {
            // A start-up for the window to cut: once the run's first request is in its journal, the
            // simulator's engine pauses for 1 s, as SteadyStateLoopbackTest (llmload-core) pauses it:
            // a third of the run, followed by 2 s at the server's own latency.
            Path journal = dir.resolve("steady").resolve(Journal.FILE_NAME);
            HttpRequest pause = HttpRequest.newBuilder(
                            URI.create(sim.url().replaceFirst("/v1/?$", "") + "/llmload/pause?ms=1000"))
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            Thread pauser = Thread.ofVirtual().start(() -> {
                try {
                    while (!Files.exists(journal) || Files.size(journal) == 0) {
                        Thread.sleep(5);
                    }
                    http.send(pause, HttpResponse.BodyHandlers.discarding());
                } catch (IOException | InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Run run = run(
                    "steady",
                    "--url",
                    sim.url(),
                    "--request-rate",
                    "100",
                    "--num-requests",
                    "300",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "10");
            pauser.join(Duration.ofSeconds(5));
            SteadyState steady = run.report().steadyState();
            assertThat(steady.reached()).as("%s", steady).isTrue();
            assertThat(steady.cut()).as("the start-up cut: %s", steady).isPositive();
            assertThat(run.console()).contains("Steady State (MSER-5): window / whole run");
            assertThat(valueOf(run.console(), "Window (s from start):"))
                    .isEqualTo(String.format(
                            Locale.ROOT,
                            "%.2f to %.2f, %d of %d requests",
                            steady.startS(),
                            steady.endS(),
                            steady.requests(),
                            steady.requests() + steady.cut()));
            // The window's figures first, the whole run's after them.
            assertThat(run.console())
                    .containsPattern("Request throughput \\(req/s\\): +"
                            + twoDecimals(steady.results().requestThroughput()).replace(".", "\\.") + " / "
                            + twoDecimals(run.report().results().requestThroughput())
                                    .replace(".", "\\.") + "\n");
        }
    }

    private record Run(String console, RunReport report) {}

    private Run openLoop(SimServer sim, double rate, String name) throws Exception {
        return run(
                name,
                "--url",
                sim.url(),
                "--request-rate",
                String.format(Locale.ROOT, "%.3f", rate),
                "--num-requests",
                "200",
                "--input-tokens",
                "32",
                "--output-tokens",
                "24");
    }

    private Run run(String name, String... args) throws Exception {
        Path out = dir.resolve(name);
        CapturedRun run = CapturedRun.of(
                new String[] {"run", "--server-metrics", "off", "--seed", "7", "--output-dir", out.toString()}, args);
        assertThat(run.exitCode()).as(run.err()).isZero();
        return new Run(run.out(), RunDirectory.readReport(out));
    }

    private static String twoDecimals(Double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    /** The value printed after a 40-wide label (the first such line). */
    private static String valueOf(String console, String label) {
        return console.lines()
                .filter(l -> l.startsWith(label))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + label + " in\n" + console))
                .substring(40)
                .strip();
    }
}
