package dev.llmload.cli;

import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.LoadSpec;
import dev.llmload.run.RunConfig;
import dev.llmload.run.RunException;
import dev.llmload.report.ConsoleSummary;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code llmload run}: benchmark one load point; without {@code --url}, of the embedded simulator. */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        sortOptions = false, usageHelpWidth = 110,
        description = {
            "Benchmark one load point of an OpenAI-compatible server and write a run directory.",
            "Without --url the built-in simulator is started on a free loopback port and benchmarked.",
            "The API key is read from the environment (LLMLOAD_API_KEY, else OPENAI_API_KEY) or --api-key-file;",
            "it is never written to any file or log."})
public final class RunCommand implements Callable<Integer> {

    /** The exit code after Ctrl-C (SIGINT), as shells expect. */
    static final int EXIT_INTERRUPTED = 130;
    /** The exit code after SIGTERM. */
    static final int EXIT_TERMINATED = 143;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL",
            description = "Server to benchmark, e.g. http://127.0.0.1:8000 (the /v1 prefix is added unless present). "
                    + "Absent: the built-in simulator.")
    String url;

    @Option(names = "--api", paramLabel = "API", defaultValue = "chat",
            description = "chat (/v1/chat/completions) or completions (/v1/completions). Default: ${DEFAULT-VALUE}.")
    String api;

    @Option(names = "--model", paramLabel = "NAME",
            description = "Model name to send. Default: the first model the server lists on /v1/models.")
    String model;

    @Option(names = "--no-stream", description = "Ask for whole (non-streamed) responses; TTFT, ITL and TPOT are then not measured.")
    boolean noStream;

    @Option(names = "--no-ignore-eos",
            description = "Do not send ignore_eos: the server may stop before --output-tokens.")
    boolean noIgnoreEos;

    @Option(names = "--concurrency", paramLabel = "N",
            description = "Closed loop: keep N requests in flight. Default: 16 when --request-rate is not given.")
    Integer concurrency;

    @Option(names = "--request-rate", paramLabel = "R",
            description = "Open loop: send R requests per second on a precomputed schedule, whatever the server does.")
    Double requestRate;

    @Option(names = "--arrival", paramLabel = "KIND", defaultValue = "poisson",
            description = "Open-loop arrivals: poisson, constant or gamma. Default: ${DEFAULT-VALUE}.")
    String arrival;

    @Option(names = "--burstiness", paramLabel = "K",
            description = "Gamma shape for --arrival gamma (1 = Poisson, < 1 burstier, > 1 more regular).")
    Double burstiness;

    @Option(names = "--max-concurrency", paramLabel = "N",
            description = "Open loop: at most N requests in flight; the others wait (shown as client queue time).")
    Integer maxConcurrency;

    @Option(names = "--num-requests", paramLabel = "N",
            description = "Requests to send, warm-up included. Default: 100, or unbounded when --duration is given.")
    Long numRequests;

    @Option(names = "--duration", paramLabel = "TIME", converter = Durations.Converter.class,
            description = "Stop sending after this long (e.g. 30s, 5m). With --num-requests, the first bound wins.")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "0",
            description = "The first N requests are sent and journaled but left out of the statistics. Default: ${DEFAULT-VALUE}.")
    int warmup;

    @Option(names = "--input-tokens", paramLabel = "DIST", defaultValue = "512",
            description = "Prompt length in tokens: N, uniform:MIN:MAX, normal:MEAN:STD, lognormal:MEAN:STD. Default: ${DEFAULT-VALUE}.")
    String inputTokens;

    @Option(names = "--output-tokens", paramLabel = "DIST", defaultValue = "128",
            description = "max_tokens per request, as a length distribution. Default: ${DEFAULT-VALUE}.")
    String outputTokens;

    @Option(names = "--dataset", paramLabel = "FILE",
            description = "JSONL prompts ({\"prompt\":...} or {\"messages\":[...]}, optional \"output_tokens\") instead of synthetic ones.")
    Path dataset;

    @Option(names = "--tokenizer", paramLabel = "NAME", defaultValue = Tokenizers.DEFAULT,
            description = "Tokenizer for synthetic prompts and local counts: cl100k_base, o200k_base, p50k_base, r50k_base, "
                    + "or a path to a HuggingFace tokenizer.json. Default: ${DEFAULT-VALUE}.")
    String tokenizer;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
            description = "Seeds prompts, lengths and arrival times; the same seed repeats the same run. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--connect-timeout", paramLabel = "TIME", converter = Durations.Converter.class, defaultValue = "10s",
            description = "Limit on opening a connection. Default: ${DEFAULT-VALUE}.")
    Duration connectTimeout;

    @Option(names = "--first-token-timeout", paramLabel = "TIME", converter = Durations.Converter.class,
            description = "Limit from the send to the first generated text. Default: none.")
    Duration firstTokenTimeout;

    @Option(names = "--idle-timeout", paramLabel = "TIME", converter = Durations.Converter.class,
            description = "Limit on silence between pieces of a stream once text has started. Default: none.")
    Duration idleTimeout;

    @Option(names = "--request-timeout", paramLabel = "TIME", converter = Durations.Converter.class, defaultValue = "10m",
            description = "Limit on a whole request. Default: ${DEFAULT-VALUE}.")
    Duration requestTimeout;

    @Option(names = "--grace", paramLabel = "TIME", converter = Durations.Converter.class, defaultValue = "30s",
            description = "When a --duration ends or the run is interrupted, requests in flight may finish for this long, "
                    + "then are cancelled (counted as cancelled). Default: ${DEFAULT-VALUE}.")
    Duration grace;

    @Option(names = "--output-dir", paramLabel = "DIR",
            description = "Run directory. Default: results/<timestamp>-<target>-<load>.")
    Path outputDir;

    @Option(names = "--metadata", paramLabel = "KEY=VALUE",
            description = "Record a fact the tool cannot discover, e.g. hardware.gpu_model=H100, model.precision=bf16, "
                    + "service.launch_args='--max-num-seqs 256'. Repeatable.")
    Map<String, String> metadata = new LinkedHashMap<>();

    @Option(names = "--note", paramLabel = "TEXT", description = "A note of your own for the report. Repeatable.")
    List<String> notes = new ArrayList<>();

    @Option(names = "--api-key-file", paramLabel = "FILE",
            description = "Read the API key from this file (first line) instead of the environment.")
    Path apiKeyFile;

    @Option(names = "--insecure", description = "Do not verify the server's TLS certificate.")
    boolean insecure;

    @Option(names = "--io-threads", paramLabel = "N",
            description = "Client event loop threads. Default: the number of CPU cores, at most 4.")
    Integer ioThreads;

    @Option(names = "--sim-config", paramLabel = "FILE",
            description = "YAML settings of the built-in simulator (only without --url); see docs/simulator.md.")
    Path simConfig;

    @Override
    public Integer call() throws Exception {
        RunConfig config = resolve();
        String apiKey = ApiKeys.read(apiKeyFile);
        PrintWriter out = spec.commandLine().getOut();
        SimServer simulator = null;
        try {
            if (config.url() == null) {
                simulator = startSimulator();
                String simUrl = "http://127.0.0.1:" + simulator.port();
                config = config.withUrl(simUrl);
                out.println("Target: the built-in llmload simulator at " + simUrl + " (no GPU involved).");
                out.println("        To benchmark a real server: llmload run --url http://HOST:PORT --model NAME");
                out.flush();
            }
            if (config.outputDir() == null) {
                config = config.withOutputDir(BenchmarkRun.defaultOutputDir(config.url(), config.load()));
            }
            return execute(config, apiKey, out);
        } finally {
            if (simulator != null) {
                simulator.close();
            }
        }
    }

    private int execute(RunConfig config, String apiKey, PrintWriter out) throws Exception {
        Progress progress = new Progress(spec.commandLine().getErr(), config.numRequests());
        BenchmarkRun run = new BenchmarkRun(config, apiKey, commandLine(), VersionProvider.version(), progress::record);
        Signals signals = Signals.install(run::stop);
        progress.start();
        BenchmarkRun.Result result;
        try {
            result = run.execute();
        } finally {
            progress.stop();
            signals.uninstall();
        }
        out.print(ConsoleSummary.render(result.report()));
        out.println("Run directory: " + result.directory());
        out.flush();
        return switch (signals.received()) {
            case "INT" -> EXIT_INTERRUPTED;
            case "TERM" -> EXIT_TERMINATED;
            default -> 0;
        };
    }

    private SimServer startSimulator() throws RunException {
        try {
            SimConfig config = SimConfig.load(simConfig, Map.of());
            return SimServer.start(config);
        } catch (RuntimeException e) {
            throw new RunException("cannot start the built-in simulator: " + e.getMessage(), e);
        }
    }

    RunConfig resolve() {
        if (concurrency != null && requestRate != null) {
            throw new UsageException("give either --concurrency (closed loop) or --request-rate (open loop), not both");
        }
        LoadSpec load;
        if (requestRate != null) {
            if (!(requestRate > 0) || requestRate.isInfinite()) {
                throw new UsageException("--request-rate must be a positive number, got " + requestRate);
            }
            if (maxConcurrency != null && maxConcurrency < 1) {
                throw new UsageException("--max-concurrency must be at least 1, got " + maxConcurrency);
            }
            if (burstiness != null && !(burstiness > 0)) {
                throw new UsageException("--burstiness must be positive, got " + burstiness);
            }
            load = LoadSpec.open(requestRate, arrival, burstiness, maxConcurrency);
        } else {
            int n = concurrency == null ? 16 : concurrency;
            if (n < 1) {
                throw new UsageException("--concurrency must be at least 1, got " + n);
            }
            if (maxConcurrency != null) {
                throw new UsageException("--max-concurrency applies to --request-rate runs; use --concurrency for a closed loop");
            }
            load = LoadSpec.closed(n);
        }
        Long requests = numRequests != null ? numRequests : duration == null ? Long.valueOf(100) : null;
        if (requests != null && requests < 1) {
            throw new UsageException("--num-requests must be at least 1, got " + requests);
        }
        if (warmup < 0 || (requests != null && warmup >= requests)) {
            throw new UsageException("--warmup must be from 0 to fewer than --num-requests, got " + warmup);
        }
        if (url != null) {
            try {
                dev.llmload.http.Endpoint.parse(url);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--url: " + e.getMessage());
            }
        }
        if (dataset != null && !Files.isReadable(dataset)) {
            throw new UsageException("--dataset: cannot read " + dataset);
        }
        ApiKind apiKind;
        try {
            apiKind = ApiKind.parse(api);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--api: " + e.getMessage());
        }
        int threads = ioThreads != null ? ioThreads : Math.min(4, Runtime.getRuntime().availableProcessors());
        if (threads < 1) {
            throw new UsageException("--io-threads must be at least 1");
        }
        return new RunConfig(url, apiKind, model, !noStream, !noIgnoreEos, load, requests, duration, warmup,
                inputTokens, outputTokens, dataset, tokenizer, seed,
                new Timeouts(connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout), grace, outputDir,
                metadata, notes, insecure, threads);
    }

    private String commandLine() {
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        StringBuilder text = new StringBuilder("llmload run");
        for (String arg : args) {
            text.append(' ').append(arg.matches("[A-Za-z0-9_./:=,@+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return text.toString();
    }

    /** Reads the API key without ever echoing it. */
    static final class ApiKeys {
        private ApiKeys() {}

        static String read(Path file) throws IOException {
            if (file != null) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                String key = lines.isEmpty() ? "" : lines.getFirst().trim();
                if (key.isEmpty()) {
                    throw new UsageException("--api-key-file: " + file + " is empty");
                }
                return key;
            }
            String key = System.getenv("LLMLOAD_API_KEY");
            if (key == null || key.isBlank()) {
                key = System.getenv("OPENAI_API_KEY");
            }
            return key == null || key.isBlank() ? null : key.trim();
        }
    }
}
