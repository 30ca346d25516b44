package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.client.ClientCost;
import dev.llmload.load.FixedSimulator;
import dev.llmload.note.Note;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import io.netty.channel.EventLoop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run measures its own client: an event loop stalled on purpose (a blocking task of known length
 * put on it before the load) shows in the loop-lag figures, the per-second column and the
 * {@code client_saturated} note; a run left alone has no such note where the host keeps time.
 */
@Tag("loopback")
// Bounds the event loops' lateness (loop lag) against the host's own wake-up lateness.
@Tag("timing")
class ClientSelfCheckLoopbackTest {

    private static final long STALL_MS = 400;

    @TempDir
    Path dir;

    @Test
    void aStalledEventLoopIsSeenAndNamedInTheReport() throws Exception {
        try (SimServer sim = FixedSimulator.start(20, 10, Map.of())) {
            AtomicReference<EventLoop> loopZero = new AtomicReference<>();
            AtomicInteger finished = new AtomicInteger();
            // Once 16 of the 100 requests have finished, loop 0 blocks: every stream on it waits, as it would
            // behind a slow handler. Counted from the load, not the clock: on a busy host the run's start
            // may take longer than any fixed delay.
            BenchmarkRun run =
                    new BenchmarkRun(config(sim, "stalled"), sim.url(), null, "llmload run (test)", "test", r -> {
                        if (finished.incrementAndGet() == 16) {
                            loopZero.get().execute(() -> sleep(STALL_MS));
                        }
                    });
            run.onEventLoops(loops -> loopZero.set(loops.getFirst()));
            BenchmarkRun.Result result = run.execute();
            RunReport report = result.report();
            ClientCost client = report.client();

            assertThat(client.eventLoops()).isEqualTo(2);
            // The test request went out before the load began, and after the JVM had started.
            assertThat(client.cpuBeforeFirstSendS()).isPositive().isLessThanOrEqualTo(client.cpuBeforeLoadS());
            assertThat(client.wallBeforeFirstSendS()).isPositive().isLessThanOrEqualTo(client.wallBeforeLoadS());
            assertThat(client.loopLagMs().max()).isGreaterThanOrEqualTo(STALL_MS - 20.0);
            assertThat(client.loopLagMs().p99()).isGreaterThan(ClientCost.LOOP_LAG_P99_LIMIT_MS);
            assertThat(client.saturated()).isTrue();
            Note note = report.notes().stream()
                    .filter(n -> n.kind().equals(ClientCost.CLIENT_SATURATED))
                    .findFirst()
                    .orElseThrow();
            assertThat(note.message()).contains("ITL", "TTFT");
            assertThat(client.verdict()).startsWith("saturated (see the client_saturated note)");

            List<String> csv = Files.readAllLines(result.directory().resolve("timeseries.csv"));
            int column = Arrays.asList(csv.getFirst().split(",")).indexOf("client_loop_lag_max_ms");
            assertThat(column).isPositive();
            assertThat(csv.subList(1, csv.size()).stream()
                            .map(line -> line.split(",", -1)[column])
                            .filter(cell -> !cell.isEmpty())
                            .mapToDouble(Double::parseDouble)
                            .max()
                            .orElseThrow())
                    .isGreaterThanOrEqualTo(STALL_MS - 20.0);
            assertThat(ReportFiles.JSON
                            .readTree(result.directory().resolve("report.json").toFile())
                            .at("/client/saturated")
                            .asBoolean())
                    .isTrue();
        }
    }

    @Test
    void aRunLeftAloneHasNoClientNote() throws Exception {
        try (SimServer sim = FixedSimulator.start(20, 10, Map.of());
                HostTimerJitter host = new HostTimerJitter()) {
            BenchmarkRun.Result result = SimulatorRuns.run(config(sim, "clean"));
            double hostP99Ms = host.p99Ms();
            ClientCost client = result.report().client();
            System.out.println("clean run: host p99 oversleep " + hostP99Ms + " ms; client " + client.verdict());
            client.perSecond().forEach(System.out::println);
            boolean noted =
                    result.report().notes().stream().anyMatch(n -> n.kind().equals(ClientCost.CLIENT_SATURATED));
            // The note appears exactly when the figures pass a bound.
            assertThat(noted).isEqualTo(client.saturated());
            Assumptions.assumeTrue(
                    hostP99Ms < ClientCost.LOOP_LAG_P99_LIMIT_MS / 2,
                    "this host oversleeps a 1 ms park"
                            + " by " + hostP99Ms + " ms at p99, so the client's loops cannot keep within "
                            + ClientCost.LOOP_LAG_P99_LIMIT_MS + " ms here (client loop lag p99 "
                            + client.loopLagMs().p99() + " ms)");
            // More runnable threads than cores: the loops wait for a core whatever the client does, and its
            // self-check rightly says so; that the note matches the figures was checked above.
            Assumptions.assumeTrue(
                    HostLoad.perCore() <= 1,
                    () -> "the host's run queue is longer than its cores (" + HostLoad.describe()
                            + "; client loop lag p99 " + client.loopLagMs().p99() + " ms)");
            // The verdict of one 3 s run is moved by one hiccup of the host's (its loop lag p99 is the
            // 99th percentile of a few thousand samples, a burst of late ones): it is taken once more,
            // and a client that cannot keep up says so again.
            ClientCost judged = client.saturated() ? again(sim, hostP99Ms) : client;
            assertThat(judged.saturated()).as("loop lag %s", judged.loopLagMs()).isFalse();
            assertThat(judged.verdict()).startsWith("kept up, did not limit this run");
        }
    }

    /** The clean run once more, against the same simulator; skipped where the host is no longer quiet enough to judge. */
    private ClientCost again(SimServer sim, double firstHostP99Ms) throws Exception {
        try (HostTimerJitter host = new HostTimerJitter()) {
            BenchmarkRun.Result result = SimulatorRuns.run(config(sim, "clean-again"));
            double hostP99Ms = Math.max(firstHostP99Ms, host.p99Ms());
            ClientCost client = result.report().client();
            Assumptions.assumeTrue(
                    hostP99Ms < ClientCost.LOOP_LAG_P99_LIMIT_MS / 2 && HostLoad.perCore() <= 1,
                    () -> "the run again: this host oversleeps a 1 ms park by " + hostP99Ms + " ms at p99 ("
                            + HostLoad.describe() + "; client loop lag p99 "
                            + client.loopLagMs().p99() + " ms)");
            return client;
        }
    }

    /** About three seconds of load: 8 streams of 20 tokens 10 ms apart. */
    private Path runDir(String name) {
        return dir.resolve(name);
    }

    private dev.llmload.config.RunConfig config(SimServer sim, String name) {
        return SimulatorRuns.closedLoop(sim.url(), 8, 100, 16, 20, runDir(name));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
