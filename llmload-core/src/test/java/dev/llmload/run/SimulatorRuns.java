package dev.llmload.run;

import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import java.nio.file.Path;
import java.time.Duration;

/** Test helpers: run configs aimed at a simulator on loopback (one with a fixed timing model: {@link dev.llmload.load.FixedSimulator}). */
final class SimulatorRuns {

    private SimulatorRuns() {}

    static RunConfig closedLoop(
            String url, int concurrency, long requests, int inputTokens, int outputTokens, Path dir) {
        return closedLoop(url, Load.closed(concurrency), requests, inputTokens, outputTokens, dir);
    }

    /** A closed loop whose streams start one by one over {@code rampMs}, so that they do not move in lockstep. */
    static RunConfig closedLoopRampedUp(
            String url, int concurrency, long rampMs, long requests, int inputTokens, int outputTokens, Path dir) {
        Load load = Load.Closed.of(concurrency, "ramp:1:" + concurrency + ":" + rampMs + "ms");
        return closedLoop(url, load, requests, inputTokens, outputTokens, dir);
    }

    private static RunConfig closedLoop(
            String url, Load load, long requests, int inputTokens, int outputTokens, Path dir) {
        return RunConfig.builder()
                .url(url)
                .load(load)
                .numRequests(requests)
                .inputTokens(String.valueOf(inputTokens))
                .outputTokens(String.valueOf(outputTokens))
                .tokenizer("cl100k_base")
                .seed(7)
                .grace(Duration.ofSeconds(5))
                .outputDir(dir)
                .ioThreads(2)
                .build();
    }

    /** Runs {@code config} against its own URL. */
    static BenchmarkRun.Result run(RunConfig config) throws Exception {
        return new BenchmarkRun(config, config.target().url().text(), null, "llmload run (test)", "test", r -> {})
                .execute();
    }
}
