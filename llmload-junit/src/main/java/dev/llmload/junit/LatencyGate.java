package dev.llmload.junit;

import dev.llmload.LlmLoad;
import dev.llmload.RunResult;
import dev.llmload.config.ConfigException;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Target;
import dev.llmload.run.RunException;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.stats.Percentile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.opentest4j.AssertionFailedError;

/**
 * A test that fails when a server is too slow: one llmload run, then a check of its results
 * against limits.
 *
 * <pre>{@code
 * LatencyGate.against("http://127.0.0.1:8000")          // or against(LatencyGate.embeddedSimulator())
 *         .requests(200).concurrency(16)
 *         .requireP99TtftBelow(Duration.ofMillis(500))
 *         .requireErrorRateBelow(0.01)
 *         .check();
 * }</pre>
 *
 * <p>{@link #check()} runs the load on the calling thread and throws opentest4j's
 * {@link AssertionFailedError} when any limit is not met; its message names, for each, the
 * metric (with its key in {@code report.json}), the limit and the measured value, and the run
 * directory when one was kept ({@link #keepRunDirectory}). Every limit is strict ("below"), and a
 * metric with no samples (no request succeeded) fails its limit rather than passing it.
 * Everything not set here keeps {@code llmload run}'s defaults; {@link #configure} reaches every
 * other option. A bad value fails with {@link ConfigException} in the command line's words.
 *
 * <p>Not thread-safe: build and check a gate on one thread.
 */
public final class LatencyGate {

    private final String url;
    private final SimConfig simulator;
    private final List<Consumer<RunConfig.Builder>> settings = new ArrayList<>();
    private final List<Requirement> requirements = new ArrayList<>();

    private LatencyGate(String url, SimConfig simulator) {
        this.url = url;
        this.simulator = simulator;
    }

    /** A gate on the OpenAI-compatible server at {@code url} (its {@code /v1} is added unless given). */
    public static LatencyGate against(String url) {
        if (Target.ServerUrl.parse(url) == null) {
            throw new ConfigException("--url: a URL is required");
        }
        return new LatencyGate(url, null);
    }

    /**
     * A gate on llmload's simulator, started on a free loopback port for {@link #check()} and
     * stopped when it ends.
     *
     * @param simulator its settings: {@link #embeddedSimulator()}, {@link #fixedLatencySimulator},
     *                  or any {@code SimConfig} (see docs/simulator.md)
     */
    public static LatencyGate against(SimConfig simulator) {
        if (simulator == null) {
            throw new IllegalArgumentException(
                    "the simulator's settings are required; SimConfig.defaults() for its own");
        }
        return new LatencyGate(null, simulator);
    }

    /** The simulator as {@code llmload run} without {@code --url} starts it: a continuous-batching engine. */
    public static SimConfig embeddedSimulator() {
        return SimConfig.defaults();
    }

    /**
     * A simulator whose every request has the same timing, whatever its prompt and the load: the
     * first token {@code ttft} after the request arrives, then one token every {@code itl}. A
     * measured latency then has a known floor, which makes it the simulator for testing a gate.
     */
    public static SimConfig fixedLatencySimulator(Duration ttft, Duration itl) {
        return SimConfig.load(
                null,
                Map.of(
                        "engine",
                        "fixed",
                        "ttftMs",
                        ttft.toNanos() / 1e6,
                        "prefillMsPerToken",
                        0.0,
                        "itlMs",
                        itl.toNanos() / 1e6,
                        "jitter",
                        0.0));
    }

    /** How many requests to send ({@code --num-requests}; default 100). */
    public LatencyGate requests(long count) {
        settings.add(b -> b.numRequests(count));
        return this;
    }

    /** A closed loop of this many requests in flight ({@code --concurrency}; default 16). */
    public LatencyGate concurrency(int inFlight) {
        settings.add(b -> b.concurrency(inFlight));
        return this;
    }

    /** The model to ask for ({@code --model}; default: the first the server lists). */
    public LatencyGate model(String name) {
        settings.add(b -> b.model(name));
        return this;
    }

    /** Synthetic prompt and answer lengths in tokens ({@code --input-tokens}, {@code --output-tokens}; default 512 and 128). */
    public LatencyGate tokens(int input, int output) {
        settings.add(b -> b.inputTokens(String.valueOf(input)).outputTokens(String.valueOf(output)));
        return this;
    }

    /**
     * Any other option of the run, on the same builder a Java caller of {@link LlmLoad} uses, e.g.
     * {@code configure(run -> run.requestRate(5.0).duration(Duration.ofSeconds(30)))}. Applied after
     * the settings above, in the order given.
     */
    public LatencyGate configure(Consumer<RunConfig.Builder> options) {
        settings.add(options);
        return this;
    }

    /** Keep the run directory here ({@code --output-dir}), so a failure points at its report; default: none kept. */
    public LatencyGate keepRunDirectory(Path dir) {
        settings.add(b -> b.outputDir(dir));
        return this;
    }

    /** Fails unless the {@code percentile} of {@code latency} over the measured requests is below {@code limit}. */
    public LatencyGate requireBelow(Latency latency, Percentile percentile, Duration limit) {
        requirements.add(new Requirement.LatencyBelow(latency, percentile, limit));
        return this;
    }

    public LatencyGate requireP99TtftBelow(Duration limit) {
        return requireBelow(Latency.TTFT, Percentile.P99, limit);
    }

    public LatencyGate requireP99ItlBelow(Duration limit) {
        return requireBelow(Latency.ITL, Percentile.P99, limit);
    }

    public LatencyGate requireP99E2eBelow(Duration limit) {
        return requireBelow(Latency.E2E, Percentile.P99, limit);
    }

    /** Fails unless the share of measured requests that failed is below {@code share} (0.01 for 1%). */
    public LatencyGate requireErrorRateBelow(double share) {
        requirements.add(new Requirement.ErrorRateBelow(share));
        return this;
    }

    /** The run this gate makes; its URL is null for the embedded simulator, whose address is known only once it runs. */
    RunConfig config() {
        RunConfig.Builder builder = RunConfig.builder().url(url);
        settings.forEach(setting -> setting.accept(builder));
        return builder.build();
    }

    /**
     * Runs the load, then checks every limit.
     *
     * @return the run's results, for further assertions
     * @throws AssertionFailedError a limit was not met (all that were not are listed)
     * @throws ConfigException      the settings do not make a run
     * @throws RunException         the run could not start or go on (for example, the server refused it)
     */
    public RunResult check() throws RunException, InterruptedException {
        if (requirements.isEmpty()) {
            throw new IllegalStateException("a latency gate without a limit checks nothing; add a require... call");
        }
        RunConfig config = config();
        RunResult result;
        String target;
        if (simulator == null) {
            target = url;
            result = LlmLoad.run(config);
        } else {
            try (SimServer server = startSimulator()) {
                target = "the embedded simulator at " + server.url();
                result = LlmLoad.run(config, server.url());
            }
        }
        List<Requirement.Violation> violations = new ArrayList<>();
        for (Requirement requirement : requirements) {
            requirement.check(result.results()).ifPresent(violations::add);
        }
        if (!violations.isEmpty()) {
            throw failure(violations, target, result.results().requests().attempted(), result.directory());
        }
        return result;
    }

    private SimServer startSimulator() throws RunException {
        try {
            return SimServer.start(simulator);
        } catch (RuntimeException e) {
            throw new RunException("cannot start the built-in simulator: " + e.getMessage(), e);
        }
    }

    private static AssertionFailedError failure(
            List<Requirement.Violation> violations, String target, long requests, Optional<Path> directory) {
        StringBuilder message = new StringBuilder("llmload latency gate failed against ")
                .append(target)
                .append(" (")
                .append(requests)
                .append(" measured requests; run directory: ")
                .append(directory.map(Path::toString).orElse("none kept, see LatencyGate.keepRunDirectory"))
                .append("):");
        for (Requirement.Violation violation : violations) {
            message.append("\n  ").append(violation.describe());
        }
        if (violations.size() == 1) {
            Requirement.Violation only = violations.getFirst();
            return new AssertionFailedError(message.toString(), only.limitValue(), only.measuredValue());
        }
        return new AssertionFailedError(message.toString());
    }
}
