package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.analysis.NoteDetector;
import dev.llmload.analysis.Saturation;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.note.Note;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offered against achieved load on a server of known capacity: the batching simulator with four
 * seats, whose capacity is measured first with a closed loop that keeps every seat busy. An open
 * loop at twice that is flagged saturated with its figures; one at half of it is not.
 */
@Tag("loopback")
// The capacity is measured on this machine and the half-capacity run must then keep up with its
// schedule: a neighbour's load between the two would move the bounds.
@Tag("timing")
class SaturationLoopbackTest {

    /**
     * Four sequences at a time, 24 output tokens each: a capacity of about 150 requests per second.
     * The bounds are ratios to the capacity measured here, so a faster engine (every delay divided by
     * 8) keeps them and makes the runs, whose length is set by that capacity, short: at 4 the test
     * took 12.5 s, at 8 it takes 9.
     */
    private static final Map<String, Object> FOUR_SEATS =
            Map.of("speedup", 8.0, "seed", 3, "batching", Map.of("maxNumSeqs", 4));

    @TempDir
    Path dir;

    @Test
    void twiceTheCapacityIsSaturatedAndHalfOfItIsNot() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(null, FOUR_SEATS))) {
            RunReport closed = run(SimulatorRuns.closedLoop(sim.url(), 8, 80, 32, 24, dir.resolve("capacity")));
            double capacity = closed.results().requestThroughput();
            assertThat(closed.saturation().saturated())
                    .as("a closed loop offers no rate")
                    .isNull();
            assertThat(closed.saturation().offeredConcurrency()).isEqualTo(8);

            RunReport over = run(open(sim, 2 * capacity, 200, "over"));
            Saturation s = over.saturation();
            assertThat(s.saturated())
                    .as("%s at %.1f req/s against a capacity of %.1f", s, 2 * capacity, capacity)
                    .isTrue();
            assertThat(s.offeredRequestRate()).isEqualTo(2 * capacity);
            // The server completes at its capacity, whatever is offered: well short of the arrivals.
            assertThat(s.achievedRequestRate()).isLessThan(0.8 * s.scheduledRequestRate());
            // Arrivals outpaced completions by about half the arrivals: most were unfinished at the last one.
            assertThat(s.backlog()).isGreaterThan(s.arrivals() / 4).isGreaterThan((long)
                    Saturation.allowance(s.steadyBacklog()));
            // No gate: the queue is the server's (a busy client may hold back a few of the last arrivals).
            assertThat(s.backlogInFlight()).isGreaterThan(s.backlog() / 2);
            assertThat(s.drainS()).isGreaterThan(0.5 * s.backlog() / capacity);
            Note note = over.notes().stream()
                    .filter(n -> n.kind().equals(NoteDetector.SATURATED))
                    .findFirst()
                    .orElseThrow();
            assertThat(note.message())
                    .contains(String.format(java.util.Locale.ROOT, "achieved %.2f req/s", s.achievedRequestRate()))
                    .contains(s.backlog() + " requests were unfinished")
                    .contains(String.format(java.util.Locale.ROOT, "%.1f s to drain", s.drainS()));
            Path json = dir.resolve("over").resolve(ReportFiles.REPORT_JSON);
            assertThat(ReportFiles.JSON
                            .readTree(json.toFile())
                            .at("/saturation/saturated")
                            .asBoolean())
                    .isTrue();
            assertThat(Files.readString(dir.resolve("over").resolve("report.html")))
                    .contains("backlog_in_flight");

            RunReport under = run(open(sim, capacity / 2, 200, "under"));
            Saturation calm = under.saturation();
            assertThat(calm.saturated())
                    .as("%s at %.1f req/s against a capacity of %.1f", calm, capacity / 2, capacity)
                    .isFalse();
            assertThat(under.notes()).extracting(Note::kind).doesNotContain(NoteDetector.SATURATED);
            assertThat(calm.achievedRequestRate()).isGreaterThan(0.8 * calm.scheduledRequestRate());

            // --stop-on-saturation: the same overload, with a schedule five times as long, ends early.
            RunReport stopped = run(open(sim, 2 * capacity, 1000, "stopped").withStopOnSaturation(true));
            Note stop = stopped.notes().stream()
                    .filter(n -> n.kind().equals("stopped_on_saturation"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(stopped.notes()));
            assertThat(stop.message()).contains("scheduled requests were not sent");
            assertThat(stopped.results().requests().attempted()).isLessThan(1000);
            assertThat(stopped.run().interrupted()).isFalse();
            assertThat(stopped.saturation().saturated()).isTrue();
        }
    }

    private RunConfig open(SimServer sim, double rate, long requests, String name) {
        RunConfig base = SimulatorRuns.closedLoop(sim.url(), 1, requests, 32, 24, dir.resolve(name));
        return base.withLoad(Load.open(rate, Load.Arrival.POISSON, null, null));
    }

    private static RunReport run(RunConfig config) throws Exception {
        return SimulatorRuns.run(config).report();
    }
}
