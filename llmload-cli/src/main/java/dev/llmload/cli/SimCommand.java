package dev.llmload.cli;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code llmload sim}: the simulated engine as a standalone OpenAI-compatible server. Flags
 * override the {@code --config} file, which overrides the defaults of {@link SimConfig}.
 */
@Command(
        name = "sim",
        mixinStandardHelpOptions = true,
        description = "Run the simulated LLM engine as a standalone OpenAI-compatible server until interrupted.")
public final class SimCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "YAML or JSON file with SimConfig keys")
    Path config;

    @Option(names = "--host", description = "bind address (default 127.0.0.1)")
    String host;

    @Option(
            names = "--port",
            defaultValue = "8000",
            description = "TCP port, 0 for a free one (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--model", description = "served model name (default llmload-sim)")
    String model;

    @Option(names = "--max-model-len", description = "context length in tokens (default 32768)")
    Integer maxModelLen;

    @Option(names = "--server-version", description = "what GET /version reports (default 0.11.0)")
    String version;

    @Option(names = "--io-threads", description = "Netty event loop threads (default 1)")
    Integer ioThreads;

    @Option(names = "--seed", description = "seed of jitter, output lengths and fault draws (default 0)")
    Long seed;

    @Option(
            names = "--engine",
            paramLabel = "batching|fixed",
            description = "batching: continuous-batching simulation (default); fixed: fixed TTFT and ITL per request")
    String engine;

    @Option(
            names = "--profile",
            paramLabel = "NAME|FILE",
            description = "batching: step-time model, dynamo (default), h100-llama3-8b or linear; or a profile file "
                    + "written by 'llmload fit' (any simulator config file; then no --config)")
    String profile;

    @Option(
            names = "--coefficient",
            paramLabel = "NAME=VALUE",
            description = "batching: override one coefficient of the profile, e.g. decode_c=4 (repeatable)")
    Map<String, Double> coefficients;

    @Option(names = "--num-blocks", description = "batching: KV cache size in blocks (default 16384)")
    Integer numBlocks;

    @Option(names = "--block-size", description = "batching: tokens per KV block (default 16)")
    Integer blockSize;

    @Option(names = "--max-num-seqs", description = "batching: most sequences in the running batch (default 256)")
    Integer maxNumSeqs;

    @Option(names = "--max-num-batched-tokens", description = "batching: token budget of one step (default 8192)")
    Integer maxNumBatchedTokens;

    @Option(
            names = "--max-waiting",
            description = "batching: requests waiting before new ones get 429; 0 = unbounded (default 0)")
    Integer maxWaiting;

    @Option(names = "--watermark", description = "batching: share of KV blocks admission leaves free (default 0.01)")
    Double watermark;

    @Option(
            names = "--tokens-per-step",
            description = "batching: tokens per decode step, above 1 emulates speculative decoding (default 1)")
    Integer tokensPerStep;

    @Option(names = "--ttft-ms", description = "fixed: TTFT of an empty prompt (default 50)")
    Double ttftMs;

    @Option(names = "--prefill-ms-per-token", description = "fixed: added to the TTFT per prompt token (default 0.02)")
    Double prefillMsPerToken;

    @Option(names = "--itl-ms", description = "fixed: inter-token latency (default 20)")
    Double itlMs;

    @Option(
            names = "--jitter",
            description =
                    "fixed: uniform +/- share on every delay, 0..1; batching: log-normal sigma on every step time (default 0)")
    Double jitter;

    @Option(names = "--speedup", description = "divides every engine delay (default 1)")
    Double speedup;

    @Option(names = "--mean-output-tokens", description = "fixed: mean length without ignore_eos (default 128)")
    Integer meanOutputTokens;

    @Option(names = "--tokens-per-event", description = "tokens coalesced into one SSE event (default 1)")
    Integer tokensPerEvent;

    @Option(names = "--echo", negatable = true, description = "generated words cycle through the prompt's words")
    Boolean echo;

    @Option(
            names = "--early-role-chunk",
            negatable = true,
            description = "send chat's role-only chunk as soon as a request is accepted, not with the first token "
                    + "as vLLM does")
    Boolean earlyRoleChunk;

    @Option(
            names = "--enable-prefix-caching",
            negatable = true,
            description = "batching: reuse cached prompt prefixes; reported in vllm:cache_config_info (default true)")
    Boolean enablePrefixCaching;

    @Option(
            names = "--fault",
            paramLabel = "SPEC@RATE",
            description = "inject a fault into a share of requests, e.g. http-429@0.05, stall:5:2000@0.01 (repeatable)")
    List<String> faults;

    @Option(names = "--retry-after-seconds", description = "Retry-After of an injected 429 (default 1)")
    Integer retryAfterSeconds;

    @Option(
            names = "--pause",
            paramLabel = "AT_MS:DURATION_MS",
            description = "pause the whole engine DURATION_MS at AT_MS after start (repeatable)")
    List<String> pauses;

    @Option(names = "--ground-truth", paramLabel = "FILE", description = "write one JSON line per finished request")
    Path groundTruth;

    @Override
    public Integer call() throws Exception {
        SimConfig simConfig;
        try {
            simConfig = resolve();
        } catch (RuntimeException e) {
            System.err.println("llmload sim: " + e.getMessage());
            return 2;
        }
        SimServer server;
        try {
            SimServer.warmUpOverLoopback();
            server = SimServer.start(simConfig);
        } catch (Exception e) {
            // Netty throws a failed bind (a BindException, or its native transport's IOException)
            // unchecked: a port in use is one line, not a trace.
            if (e instanceof java.io.IOException) {
                System.err.println("llmload sim: cannot listen on " + simConfig.host() + ":" + simConfig.port() + ": "
                        + e.getMessage());
                return Main.EXIT_CANNOT_START;
            }
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "sim-shutdown"));
        System.out.println("llmload sim listening on " + server.url() + " (model " + simConfig.model() + ")");
        server.awaitClosed();
        return 0;
    }

    /** The configuration these flags describe: defaults, then {@code --config}, then the flags. */
    SimConfig resolve() {
        Path profileFile = profileFile();
        if (profileFile != null && config != null) {
            throw new IllegalArgumentException("give --config or a --profile file, not both");
        }
        Map<String, Object> overrides = new HashMap<>();
        overrides.put("port", port);
        put(overrides, "host", host);
        put(overrides, "model", model);
        put(overrides, "maxModelLen", maxModelLen);
        put(overrides, "version", version);
        put(overrides, "ioThreads", ioThreads);
        put(overrides, "seed", seed);
        put(overrides, "engine", engine);
        put(overrides, "ttftMs", ttftMs);
        put(overrides, "prefillMsPerToken", prefillMsPerToken);
        put(overrides, "itlMs", itlMs);
        put(overrides, "jitter", jitter);
        put(overrides, "speedup", speedup);
        put(overrides, "meanOutputTokens", meanOutputTokens);
        put(overrides, "tokensPerEvent", tokensPerEvent);
        put(overrides, "echo", echo);
        put(overrides, "earlyRoleChunk", earlyRoleChunk);
        put(overrides, "enablePrefixCaching", enablePrefixCaching);
        put(overrides, "faults", faults);
        put(overrides, "retryAfterSeconds", retryAfterSeconds);
        put(overrides, "pauses", pauses);
        put(overrides, "groundTruth", groundTruth == null ? null : groundTruth.toString());
        // Merged key by key into the file's batching section (and its coefficients), so a flag
        // changes one setting without resetting the others the file gave.
        Map<String, Object> batching = new HashMap<>();
        put(batching, "profile", profileFile == null ? profile : null);
        put(batching, "coefficients", coefficients);
        put(batching, "numBlocks", numBlocks);
        put(batching, "blockSize", blockSize);
        put(batching, "maxNumSeqs", maxNumSeqs);
        put(batching, "maxNumBatchedTokens", maxNumBatchedTokens);
        put(batching, "maxWaiting", maxWaiting);
        put(batching, "watermark", watermark);
        put(batching, "tokensPerStep", tokensPerStep);
        if (!batching.isEmpty()) {
            overrides.put("batching", batching);
        }
        return SimConfig.load(profileFile != null ? profileFile : config, overrides);
    }

    /** {@code --profile} as a file: a name ending in .yaml, .yml or .json, or any existing file. */
    private Path profileFile() {
        if (profile == null) {
            return null;
        }
        Path p = Path.of(profile);
        return profile.matches(".*\\.(ya?ml|json)$") || Files.isRegularFile(p) ? p : null;
    }

    private static void put(Map<String, Object> overrides, String key, Object value) {
        if (value != null) {
            overrides.put(key, value);
        }
    }
}
