package dev.llmload.run;

import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Test helpers: a simulator on loopback with a fixed timing model, and run configs aimed at it. */
final class SimulatorRuns {

    private SimulatorRuns() {}

    /** A fixed-latency simulator: TTFT {@code ttftMs} whatever the prompt, then one token every {@code itlMs}. */
    static SimServer fixedSimulator(double ttftMs, double itlMs, Map<String, Object> extra) {
        return FixedSimulator.start(ttftMs, itlMs, extra);
    }

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
