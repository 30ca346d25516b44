package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BenchmarkRun#inFlight}, the count the progress line shows: a closed loop of concurrency 4
 * against a simulator slow enough that every request is in flight for about 0.4 s never shows
 * more than 4, shows 4 while the loop is full, and shows 0 once the run is over.
 */
@Tag("loopback")
class InFlightCountTest {

    @TempDir
    Path dir;

    @Test
    void countFollowsTheClosedLoopAndEndsAtZero() throws Exception {
        try (SimServer sim = FixedSimulator.start(50, 20, Map.of())) {
            RunConfig config = SimulatorRuns.closedLoop(sim.url(), 4, 12, 16, 20, dir.resolve("run"));
            BenchmarkRun run = new BenchmarkRun(config, sim.url(), null, "llmload run (test)", "test", r -> {});
            AtomicInteger max = new AtomicInteger();
            AtomicInteger fullSamples = new AtomicInteger();
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    int now = run.inFlight();
                    max.accumulateAndGet(now, Math::max);
                    if (now == 4) {
                        fullSamples.incrementAndGet();
                    }
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            BenchmarkRun.Result result;
            try {
                result = run.execute();
            } finally {
                sampler.interrupt();
                sampler.join();
            }
            assertThat(result.report().results().requests().succeeded()).isEqualTo(12);
            assertThat(max.get()).isEqualTo(4);
            // Three waves of about 0.45 s each: the loop is full for most of the run.
            assertThat(fullSamples.get()).isGreaterThan(10);
            assertThat(run.inFlight()).isZero();
        }
    }
}
