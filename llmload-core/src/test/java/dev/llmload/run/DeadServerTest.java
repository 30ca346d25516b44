package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The target goes away in the middle of a closed-loop run and comes back on the same port: each
 * slot backs off its connection attempts (50 ms doubling to 2 s) instead of failing thousands of
 * times a second, the run recovers once the server is back, and the note {@code target_unreachable}
 * says when it was away and how many requests failed to connect meanwhile.
 */
@Tag("loopback")
class DeadServerTest {

    private static final int CONCURRENCY = 4;

    @TempDir
    Path dir;

    @Test
    void aClosedLoopBacksOffWhileTheTargetIsGoneAndNotesTheOutage() throws Exception {
        SimServer first = SimulatorRuns.fixedSimulator(1, 1, Map.of());
        int port = first.port();
        RunConfig config = RunConfig.builder().url(first.url()).load(Load.closed(CONCURRENCY))
                .duration(Duration.ofSeconds(10)).inputTokens("16").outputTokens("8").tokenizer("cl100k_base").seed(7)
                .grace(Duration.ofSeconds(5)).outputDir(dir).ioThreads(2).build();
        CompletableFuture<BenchmarkRun.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return SimulatorRuns.run(config);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        SimServer second = null;
        boolean firstClosed = false;
        try {
            awaitJournalLines(20, run);
            long goneAt = System.nanoTime();
            first.close();
            firstClosed = true;
            Thread.sleep(2_500);
            second = SimulatorRuns.fixedSimulator(1, 1, Map.of("port", port));
            double outageS = (System.nanoTime() - goneAt) / 1e9;
            BenchmarkRun.Result result = run.get(120, TimeUnit.SECONDS);

            List<RequestRecord> records = result.records();
            long connectFailures = records.stream().filter(DeadServerTest::failedToConnect).count();
            // Per slot: attempts at 0, 50, 150, 350, 750, 1550 ms, then one every 2 s; plus each
            // slot's request that was on a connection when the server went.
            long bound = CONCURRENCY * (7 + (long) Math.ceil(outageS / 2)) + CONCURRENCY;
            assertThat(connectFailures).as("connect failures in a %.1f s outage; outcomes %s", outageS,
                            records.stream().collect(java.util.stream.Collectors.groupingBy(r -> r.outcome().key(),
                                    java.util.stream.Collectors.counting()))).isPositive()
                    .isLessThanOrEqualTo(bound);
            long lastFailureEnd = records.stream().filter(DeadServerTest::failedToConnect)
                    .mapToLong(r -> r.timings().endNanos()).max().orElseThrow();
            assertThat(records.stream().filter(r -> r.succeeded() && r.timings().sentNanos() > lastFailureEnd).count())
                    .as("requests that succeeded once the server was back").isPositive();

            List<Note> notes = result.report().notes().stream().filter(n -> n.kind().equals("target_unreachable"))
                    .toList();
            assertThat(notes).hasSize(1);
            assertThat(notes.getFirst().message().split("from t=", -1)).as("one outage: %s", notes.getFirst().message())
                    .hasSize(2);
            assertThat(notes.getFirst().message()).contains("could not be reached from t=").contains(" to t=")
                    .contains(connectFailures + " of ").doesNotContain("never answered again");
        } finally {
            if (!firstClosed) {
                first.close();
            }
            if (second != null) {
                second.close();
            }
        }
    }

    private static boolean failedToConnect(RequestRecord r) {
        return r.outcome() instanceof Outcome.Failure f && f.failureClass() == FailureClass.CONNECT;
    }

    private void awaitJournalLines(int lines, CompletableFuture<?> run) throws Exception {
        Path journal = dir.resolve("requests.jsonl");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            assertThat(run).as("the run ended early").isNotDone();
            if (Files.exists(journal) && Files.readAllLines(journal).size() >= lines) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the journal never reached " + lines + " lines");
    }
}
