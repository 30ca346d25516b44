package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.llmload.client.ClientCost;
import dev.llmload.config.Bounds;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.Timeouts;
import dev.llmload.note.Note;
import dev.llmload.report.RunReport;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each note llmload writes by itself is produced by a simulator scenario that shows the problem,
 * and a clean run has none of them.
 *
 * <p>The scenarios whose note rests on how late something ran (the client behind its schedule, a
 * wait at the gate, latency drifting, an idle timeout, a clean run's lack of notes) are tagged
 * {@code timing} and run alone; those whose note rests on what the server said or counted (its
 * statuses, its scraped queue) run beside another class.
 */
@Tag("loopback")
class AutomaticNotesTest {

    @TempDir
    Path dir;

    private static SimServer simulator(Map<String, Object> settings) {
        return SimServer.start(SimConfig.load(null, settings));
    }

    private static Map<String, Object> fixed(double ttftMs, double itlMs, Object... more) {
        Map<String, Object> settings = new HashMap<>(
                Map.of("engine", "fixed", "ttftMs", ttftMs, "itlMs", itlMs, "prefillMsPerToken", 0.0, "jitter", 0.0));
        for (int i = 0; i < more.length; i += 2) {
            settings.put((String) more[i], more[i + 1]);
        }
        return settings;
    }

    private RunReport run(SimServer sim, Load load, long requests, int input, int output, Timeouts timeouts)
            throws Exception {
        RunConfig base = SimulatorRuns.closedLoop(sim.url(), 1, requests, input, output, dir.resolve("run"));
        Bounds b = base.bounds();
        RunConfig config = new RunConfig(
                base.target(),
                load,
                base.data(),
                null,
                new Bounds(requests, null, 0, null, timeouts, Duration.ofSeconds(5)),
                base.client(),
                base.telemetry(),
                base.output().withDir(dir.resolve("run-" + System.nanoTime())),
                null,
                base.seed(),
                null);
        return SimulatorRuns.run(config).report();
    }

    /**
     * The kinds of the run's notes but the client's own: whether the client kept up depends on the
     * host, and ClientSelfCheckLoopbackTest holds that note to its figures.
     */
    private static List<String> kinds(RunReport report) {
        return report.notes().stream()
                .map(Note::kind)
                .filter(kind -> !kind.equals(ClientCost.CLIENT_SATURATED))
                .toList();
    }

    @Test
    @Tag("timing")
    void aCleanRunWithEnoughSamplesHasNoNotes() throws Exception {
        try (SimServer sim = simulator(fixed(5, 1))) {
            RunReport report = run(sim, Load.closed(16), 1000, 16, 4, Timeouts.defaults());
            assertThat(report.results().requests().succeeded()).isEqualTo(1000);
            // The simulator shares this machine: where it could not keep to its own schedule (its note), the
            // run was not clean, and its latency moved with the host's load rather than the server's.
            assumeFalse(
                    report.notes().stream().anyMatch(n -> n.kind().equals("simulator_behind")),
                    () -> "the simulator fell behind its own schedule (" + HostLoad.describe() + "): "
                            + report.notes());
            // Whether the client itself kept up depends on the host (see kinds); its note agrees with its figures.
            assertThat(report.notes())
                    .extracting(Note::kind)
                    .isEqualTo(report.client().saturated() ? List.of(ClientCost.CLIENT_SATURATED) : List.of());
        }
    }

    @Test
    @Tag("timing")
    void tooFewSamplesForTheQuotedPercentiles() throws Exception {
        try (SimServer sim = simulator(fixed(5, 1))) {
            // The simulator's own note that it fell behind its schedule comes from the host's load, not from the
            // run's sample count, so it is left out of what this run must say.
            assertThat(kinds(run(sim, Load.closed(4), 20, 16, 4, Timeouts.defaults())).stream()
                            .filter(kind -> !kind.equals("simulator_behind"))
                            .toList())
                    .containsExactly("low_sample_count");
        }
    }

    /**
     * The first demo run's shape: the built-in simulator's default engine under a closed loop of 16
     * at 512 tokens in, 128 out. Its waiting queue fills as the sixteen arrive and stays bounded by
     * them; that is the load the client chose, not a server falling behind, so no
     * {@code queue_building}; and the sample-count note says how many requests make the tail count.
     */
    @Test
    void aClosedLoopGetsNoQueueBuildingNoteAndTheDemoNotesSayWhatToDo() throws Exception {
        try (SimServer sim = simulator(Map.of())) {
            RunReport report = run(sim, Load.closed(16), 100, 512, 128, Timeouts.defaults());
            assertThat(report.telemetry())
                    .as("the server's metrics were scraped")
                    .isNotNull();
            assertThat(kinds(report)).doesNotContain("queue_building");
            assertThat(report.notes())
                    .filteredOn(n -> n.kind().equals("low_sample_count"))
                    .singleElement()
                    .extracting(Note::message)
                    .asString()
                    .endsWith("or measure at least 1,000 requests (e.g. --num-requests 1000, warm-up not counted)");
        }
    }

    @Test
    void rateLimitingWithItsRetryAfter() throws Exception {
        try (SimServer sim = simulator(fixed(5, 1, "faults", List.of("http-429@0.3"), "seed", 3))) {
            RunReport report = run(sim, Load.closed(4), 60, 16, 4, Timeouts.defaults());
            assertThat(kinds(report)).contains("rate_limited", "high_error_rate");
            Note note = report.notes().stream()
                    .filter(n -> n.kind().equals("rate_limited"))
                    .findFirst()
                    .orElseThrow();
            assertThat(note.message()).contains("HTTP 429").contains("Retry-After 1");
        }
    }

    @Test
    @Tag("timing")
    void timeoutsByKind() throws Exception {
        try (SimServer sim = simulator(fixed(5, 1, "faults", List.of("stall:2:1500@0.5"), "seed", 1))) {
            Timeouts idle = new Timeouts(Duration.ofSeconds(5), null, Duration.ofMillis(200), Duration.ofMinutes(1));
            RunReport report = run(sim, Load.closed(8), 40, 16, 8, idle);
            assertThat(kinds(report)).contains("timeouts");
            assertThat(report.results().errors().get("timeout").byTimeoutKind()).containsKey("idle");
        }
    }

    @Test
    @Tag("timing")
    void queueingAtTheConcurrencyGate() throws Exception {
        // Each request takes about 50 ms and two may be in flight: 40 req/s against 100 req/s sent.
        // The n-th request waits about n × 14 ms at the gate, so the p50 wait (about 400 ms) is far
        // over the rule's 20 ms and its TTFT (25 ms) and grows through the run, in 1.5 s rather than
        // the 3 s of every time doubled.
        try (SimServer sim = simulator(fixed(25, 2.5))) {
            RunReport report =
                    run(sim, Load.open(100, Load.Arrival.CONSTANT, null, 2), 60, 16, 10, Timeouts.defaults());
            assertThat(kinds(report)).contains("queueing");
        }
    }

    @Test
    @Tag("timing")
    void latencyDriftWhenTheServerQueueGrows() throws Exception {
        // A batching engine that runs 2 sequences at a time, offered more than it can serve: its
        // waiting queue and so TTFT grow through the run. Twice as fast an engine offered twice the
        // rate is the same run in half the time: the queue grows by the same requests, and its TTFTs,
        // though halved, grow far more than the rule's 1.5 times and 20 ms.
        Map<String, Object> settings = new HashMap<>(Map.of("speedup", 8.0, "seed", 1));
        settings.put("batching", Map.of("maxNumSeqs", 2));
        try (SimServer sim = simulator(settings)) {
            RunReport report =
                    run(sim, Load.open(120, Load.Arrival.CONSTANT, null, null), 90, 64, 64, Timeouts.defaults());
            assertThat(kinds(report)).contains("latency_drift");
        }
    }

    @Test
    @Tag("timing")
    void theClientFallingBehindItsSchedule() throws Exception {
        // Making 2,000-token prompts takes longer than the 0.2 ms between sends at 5,000 req/s: once
        // the requests prepared before the clock started are sent, the client cannot keep the
        // schedule, and the run is flagged rather than passed off as valid.
        try (SimServer sim = simulator(fixed(5, 1))) {
            RunReport report =
                    run(sim, Load.open(5000, Load.Arrival.CONSTANT, null, null), 1200, 2000, 2, Timeouts.defaults());
            assertThat(kinds(report)).contains("client_behind_schedule");
        }
    }

    @Test
    void outOfMemoryErrorsFromTheServer() throws Exception {
        try (SimServer sim = simulator(fixed(5, 1, "faults", List.of("http-500-oom@0.1"), "seed", 4))) {
            RunReport report = run(sim, Load.closed(4), 60, 16, 4, Timeouts.defaults());
            assertThat(kinds(report)).contains("oom");
            assertThat(report.notes().stream()
                            .filter(n -> n.kind().equals("oom"))
                            .findFirst()
                            .orElseThrow()
                            .message())
                    .containsIgnoringCase("out of memory");
        }
    }

    @Test
    void manyFailures() throws Exception {
        try (SimServer sim = simulator(fixed(5, 1, "faults", List.of("http-500@0.25"), "seed", 5))) {
            RunReport report = run(sim, Load.closed(4), 60, 16, 4, Timeouts.defaults());
            assertThat(kinds(report)).contains("high_error_rate");
        }
    }
}
