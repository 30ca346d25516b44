package dev.llmload;

import dev.llmload.config.ConfigException;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Target;
import dev.llmload.record.RequestRecord;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.OutputDirectory;
import dev.llmload.run.RunException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The entry point for Java callers: one benchmark run, from a {@link RunConfig} to its
 * {@link RunResult}, as {@code llmload run} makes it.
 *
 * <pre>{@code
 * RunConfig config = RunConfig.builder().url("http://127.0.0.1:8000").concurrency(16).numRequests(200L).build();
 * RunResult result = LlmLoad.run(config);
 * double p99TtftMs = result.results().ttftMs().p99();
 * }</pre>
 *
 * <p>A bad value fails in {@link RunConfig.Builder#build()} with a {@link ConfigException} in the
 * command line's words. A run directory is written only when the configuration names one
 * ({@code outputDir}; it must be empty or new, as without {@code --overwrite}): without one the run writes into a temporary directory that is deleted
 * before {@code run} returns, so nothing stays on disk and the results are in the returned value.
 *
 * <p>Threads: {@code run} blocks the caller's thread, which becomes the run's dispatcher (it paces
 * the sends and writes the report); the event loops, the feed, the recorder and the telemetry
 * collector it starts are stopped before it returns. The caller must not be an event loop. Run
 * one at a time: two runs at once share the machine's cores and disturb each other's measurements.
 */
public final class LlmLoad {

    /** What a library run records as its command line in {@code report.json}. */
    static final String COMMAND_LINE = "dev.llmload.LlmLoad.run";

    private LlmLoad() {}

    /**
     * Runs {@code config} against the server its URL names.
     *
     * @throws ConfigException the configuration names no server, its run directory holds files
     *                         already, or its API key file cannot be read
     * @throws RunException    the run cannot start or go on (bad data, a server that refuses the
     *                         test request, a run directory that cannot be written); one line
     */
    public static RunResult run(RunConfig config) throws RunException, InterruptedException {
        if (config.target().url() == null) {
            throw new ConfigException("--url: a URL is required; to load a server started in this JVM (such as "
                    + "llmload-sim's SimServer), give its address with LlmLoad.run(config, server.url())");
        }
        return run(config, config.target().url().text());
    }

    /**
     * Runs {@code config} against the server at {@code serverUrl} instead of the one the
     * configuration names: the way to load a server started in this JVM, such as the simulator of
     * {@code llmload-sim} ({@code SimServer.start(SimConfig.defaults()).url()}). The configuration
     * is recorded as given, so one without a URL is recorded as a run of the built-in simulator,
     * as {@code llmload run} without {@code --url} records it.
     *
     * @param serverUrl the server to load, e.g. {@code http://127.0.0.1:40123}
     */
    public static RunResult run(RunConfig config, String serverUrl) throws RunException, InterruptedException {
        if (serverUrl == null) {
            throw new ConfigException("--url: a URL is required");
        }
        Target.ServerUrl.parse(serverUrl);
        String apiKey = config.target().keySource().read();
        Path kept = config.output().dir();
        if (kept != null) {
            // As the command line without --overwrite: a run never mixes its files with another's.
            String refusal = OutputDirectory.refusal(kept, false);
            if (refusal != null) {
                throw new ConfigException(refusal);
            }
            // Held while the run writes, so another run into the same directory is refused.
            try (OutputDirectory.Claim claim = OutputDirectory.claim(kept, false)) {
                BenchmarkRun.Result result = execute(config, serverUrl, apiKey);
                return new RunResult(Optional.of(result.directory()), result.report(), journaled(result));
            } catch (IOException e) {
                throw new RunException("cannot release --output-dir " + kept + ": " + e.getMessage(), e);
            }
        }
        Path temporary;
        try {
            temporary = Files.createTempDirectory("llmload-run-");
        } catch (IOException e) {
            throw new RunException("cannot create a temporary run directory: " + e.getMessage(), e);
        }
        BenchmarkRun.Result result;
        List<RequestRecord> records;
        try {
            result = execute(config.withOutputDir(temporary), serverUrl, apiKey);
            records = journaled(result);
        } catch (Throwable e) {
            try {
                deleteTree(temporary);
            } catch (IOException notRemoved) {
                e.addSuppressed(notRemoved);
            }
            throw e;
        }
        try {
            deleteTree(temporary);
        } catch (IOException e) {
            throw new RunException("cannot remove the temporary run directory " + temporary + ": " + e.getMessage(), e);
        }
        return new RunResult(Optional.empty(), result.report(), records);
    }

    private static BenchmarkRun.Result execute(RunConfig config, String serverUrl, String apiKey)
            throws RunException, InterruptedException {
        try {
            return new BenchmarkRun(config, serverUrl, apiKey, COMMAND_LINE, version(), record -> {}).execute();
        } catch (IOException e) {
            throw new RunException(
                    "cannot write the run directory " + config.output().dir() + ": " + e.getMessage(), e);
        }
    }

    /** The run's records with their token events, read back from its journal (the run holds none). */
    private static List<RequestRecord> journaled(BenchmarkRun.Result result) throws RunException {
        try {
            return result.journaledRecords();
        } catch (IOException e) {
            throw new RunException("cannot read the journal of " + result.directory() + ": " + e.getMessage(), e);
        }
    }

    /** The version of llmload on the class path, as {@code llmload --version} prints it. */
    public static String version() {
        Properties properties = new Properties();
        try (InputStream in = LlmLoad.class.getResourceAsStream("/llmload-version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return properties.getProperty("version", "unknown");
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
