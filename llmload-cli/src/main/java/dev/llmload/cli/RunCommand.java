package dev.llmload.cli;

import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.ImageInputs;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.DataSpec;
import dev.llmload.run.Durations;
import dev.llmload.run.TelemetrySpec;
import dev.llmload.run.Traffic;
import dev.llmload.run.LoadSpec;
import dev.llmload.run.RunConfig;
import dev.llmload.run.RunException;
import dev.llmload.run.SessionSpec;
import dev.llmload.report.ConsoleSummary;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.workload.length.LengthDistribution;
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
import java.util.Set;
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

    @Option(names = "--api", paramLabel = "API", defaultValue = "auto",
            description = "The API to speak: chat, completions (OpenAI-compatible), tgi, triton, ollama, ollama-chat, "
                    + "llamacpp, sglang (native engine APIs), anthropic, responses, embeddings, rerank, or auto: chat "
                    + "when the server lists a model on /v1/models, else stop and name the native --api it answers. "
                    + "docs/cli.md lists each. Default: ${DEFAULT-VALUE}.")
    String api;

    @Option(names = "--batch-size", paramLabel = "N", defaultValue = "1",
            description = "Inputs per request for --api embeddings (texts) and rerank (documents). Default: ${DEFAULT-VALUE}.")
    int batchSize;

    @Option(names = "--images", paramLabel = "N:WxH",
            description = "Attach N synthetic PNG images of W x H pixels to every chat request, as data URLs (vision "
                    + "models); made from --seed and the request, so a seeded run sends the same images.")
    String images;

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
            description = "Open loop: send R requests (with --sessions: start R sessions) per second on a precomputed "
                    + "schedule, whatever the server does.")
    Double requestRate;

    @Option(names = "--arrival", paramLabel = "KIND", defaultValue = "poisson",
            description = "Open-loop arrivals: poisson, constant or gamma (ramp, stages, bursts and trace are chosen by their own "
                    + "flags). Default: ${DEFAULT-VALUE}.")
    String arrival;

    @Option(names = "--ramp", paramLabel = "FROM:TO:TIME[:exponential]",
            description = "Open loop with a rate moving from FROM to TO req/s over TIME (sets --arrival ramp); "
                    + "add :poisson for random gaps.")
    String ramp;

    @Option(names = "--stages", paramLabel = "RATE:TIME,...",
            description = "Open loop in steady stages, e.g. 5:30s,10:30s,20:30s (sets --arrival stages).")
    String stages;

    @Option(names = "--bursts", paramLabel = "BASE:SIZE:PERIOD",
            description = "Open loop: SIZE requests at once every PERIOD on top of a Poisson BASE rate, e.g. 2:20:10s "
                    + "(sets --arrival bursts).")
    String bursts;

    @Option(names = "--concurrency-profile", paramLabel = "PROFILE",
            description = "Closed loop whose concurrency changes: ramp:FROM:TO:TIME or steps N:TIME,N:TIME,...")
    String concurrencyProfile;

    @Option(names = "--burstiness", paramLabel = "K",
            description = "Gamma shape for --arrival gamma (1 = Poisson, < 1 burstier, > 1 more regular).")
    Double burstiness;

    @Option(names = "--max-concurrency", paramLabel = "N",
            description = "Open loop: at most N requests in flight; the others wait (shown as client queue time).")
    Integer maxConcurrency;

    @Option(names = "--num-requests", paramLabel = "N",
            description = "Requests to send (with --sessions: turns), warm-up included. Default: 100, or unbounded when "
                    + "--duration is given.")
    Long numRequests;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Stop sending after this long (e.g. 30s, 5m). With --num-requests, the first bound wins.")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "N|TIME", defaultValue = "0",
            description = "Warm-up left out of the statistics but kept in the journal (flagged): the first N requests, "
                    + "or the requests intended to start in the first TIME (e.g. 30s). Default: ${DEFAULT-VALUE}.")
    String warmup;

    @Option(names = "--input-tokens", paramLabel = "DIST", defaultValue = "512",
            description = "Prompt length in tokens (with --sessions: of each new user message): N, uniform:MIN:MAX, "
                    + "normal:MEAN:STD, lognormal:MEAN:STD. Default: ${DEFAULT-VALUE}.")
    String inputTokens;

    @Option(names = "--output-tokens", paramLabel = "DIST", defaultValue = "128",
            description = "max_tokens per request, as a length distribution. Default: ${DEFAULT-VALUE}.")
    String outputTokens;

    @Option(names = "--range-ratio", paramLabel = "R",
            description = "As vLLM's --random-range-ratio: fixed lengths L become uniform on [L(1-R), L(1+R)].")
    Double rangeRatio;

    @Option(names = "--dataset", paramLabel = "FILE",
            description = "Prompts from a file instead of synthetic ones: JSONL ({\"prompt\":...} or {\"messages\":[...]}, "
                    + "optional \"output_tokens\") or a ShareGPT JSON array.")
    Path dataset;

    @Option(names = "--dataset-format", paramLabel = "FORMAT",
            description = "jsonl or sharegpt. Default: told from the file (a JSON array is ShareGPT).")
    String datasetFormat;

    @Option(names = "--shared-prefix", paramLabel = "N:TOKENS[:zipf:S]",
            description = "Synthetic prompts start with one of N shared prefixes of TOKENS tokens, spread uniformly "
                    + "or by Zipf, to measure prefix caching.")
    String sharedPrefix;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Replay a JSONL or CSV trace (timestamp ms, input_length, output_length, optional hash_ids) "
                    + "at its own timestamps (sets --arrival trace).")
    Path trace;

    @Option(names = "--trace-speed", paramLabel = "X", defaultValue = "1",
            description = "Replay the trace X times faster. Default: ${DEFAULT-VALUE}.")
    double traceSpeed;

    @Option(names = "--sessions", paramLabel = "TURNS",
            description = "Multi-turn chat sessions of TURNS turns each (a length distribution, e.g. 3 or uniform:2:6). "
                    + "Each turn sends the whole history with the model's actual answers plus a new user message of "
                    + "--input-tokens; the next turn follows the answer after --think-time. Sessions start at the "
                    + "--request-rate arrivals, or --max-sessions are kept in flight (closed loop). A failed turn ends "
                    + "its session. --num-requests counts turns.")
    String sessions;

    @Option(names = "--think-time", paramLabel = "DIST_MS",
            description = "With --sessions: pause in ms between an answer's end and the next turn, a length distribution "
                    + "(e.g. 2000 or uniform:1000:5000). Default: none.")
    String thinkTime;

    @Option(names = "--max-sessions", paramLabel = "N",
            description = "With --sessions: at most N sessions in flight. Closed loop: N sessions are kept in flight "
                    + "(default 16). Open loop: a session due while N are running waits (client queue time); default: no limit.")
    Integer maxSessions;

    @Option(names = "--tokenizer", paramLabel = "NAME", defaultValue = Tokenizers.DEFAULT,
            description = "Tokenizer for synthetic prompts and local counts: cl100k_base, o200k_base, p50k_base, r50k_base, "
                    + "or a path to a HuggingFace tokenizer.json. Default: ${DEFAULT-VALUE}.")
    String tokenizer;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
            description = "Seeds prompts, lengths and arrival times; the same seed repeats the same run. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--connect-timeout", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "10s",
            description = "Limit on opening a connection. Default: ${DEFAULT-VALUE}.")
    Duration connectTimeout;

    @Option(names = "--first-token-timeout", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Limit from the send to the first generated text. Default: none.")
    Duration firstTokenTimeout;

    @Option(names = "--idle-timeout", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Limit on silence between pieces of a stream once text has started. Default: none.")
    Duration idleTimeout;

    @Option(names = "--request-timeout", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "10m",
            description = "Limit on a whole request. Default: ${DEFAULT-VALUE}.")
    Duration requestTimeout;

    @Option(names = "--server-metrics", paramLabel = "URL|auto|off", defaultValue = "auto",
            description = "Prometheus metrics of the server, scraped during the run. auto: the target's /metrics when it "
                    + "answers in Prometheus format. Default: ${DEFAULT-VALUE}.")
    String serverMetrics;

    @Option(names = "--server-kind", paramLabel = "KIND",
            description = "Read the server's metrics as vllm, sglang, tgi, trtllm, triton or llamacpp. Default: detected.")
    String serverKind;

    @Option(names = "--gpu-metrics", paramLabel = "URL",
            description = "A DCGM exporter's metrics URL (e.g. http://node:9400/metrics). Repeatable, one per node.")
    List<String> gpuMetrics = new ArrayList<>();

    @Option(names = "--nvidia-smi", paramLabel = "INTERVAL", arity = "0..1", fallbackValue = "1s",
            converter = DurationConverter.class,
            description = "Poll the local nvidia-smi every INTERVAL (default 1s) for GPU utilisation, memory and power.")
    Duration nvidiaSmi;

    @Option(names = "--scrape-interval", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "1s",
            description = "How often metrics are scraped (at least 100ms). Default: ${DEFAULT-VALUE}.")
    Duration scrapeInterval;

    @Option(names = "--grace", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "30s",
            description = "When a --duration ends or the run is interrupted, requests in flight may finish for this long, "
                    + "then are cancelled (counted as cancelled). Default: ${DEFAULT-VALUE}.")
    Duration grace;

    @Option(names = "--slo", paramLabel = "LIMITS",
            description = "Per-request limits in ms for goodput, any of ttft, tpot, e2e: e.g. ttft:500,tpot:50,e2e:3000. "
                    + "A request meets the SLO when it succeeded within every limit.")
    String slo;

    @Option(names = "--export", paramLabel = "FORMAT",
            description = "Also write the results in another tool's format: vllm (vllm-result.json, the keys of "
                    + "vllm bench serve --save-result). Repeatable.")
    List<String> exports = new ArrayList<>();

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

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Defaults for a common question: chat, batch, long-doc, online or capacity (docs/cli.md). "
                    + "Flags and --config still win.")
    String scenario;

    @Option(names = "--config", paramLabel = "FILE",
            description = "A YAML scenario file with the same keys as these flags (plus metadata, notes, model, service, "
                    + "hardware), or a run's report.json to repeat that run. Flags override it.")
    Path config;

    @Option(names = "--sim-config", paramLabel = "FILE",
            description = "YAML settings of the built-in simulator (only without --url); see docs/simulator.md.")
    Path simConfig;

    /** Metadata and notes a config file added; set on the command re-parsed with the file's options. */
    private Map<String, String> configMetadata = Map.of();
    private List<String> configNotes = List.of();
    private boolean configApplied;

    /** Options that choose the load model; a scenario's are dropped when the user chose one. */
    private static final Set<String> LOAD_OPTIONS = Set.of("concurrency", "requestrate", "arrival", "ramp", "stages",
            "bursts", "concurrencyprofile", "trace", "maxconcurrency", "burstiness", "sessions", "maxsessions");

    @Override
    public Integer call() throws Exception {
        if (!configApplied && (config != null || scenario != null)) {
            return withConfigApplied().call();
        }
        RunConfig resolved = resolve();
        String apiKey = ApiKeys.read(apiKeyFile);
        PrintWriter out = spec.commandLine().getOut();
        if (scenario != null) {
            out.println("Scenario " + scenario + ": look first at " + Scenarios.byName(scenario).leadsWith() + ".");
        }
        SimServer simulator = null;
        try {
            String target = resolved.url();
            if (target == null) {
                simulator = startSimulator();
                target = "http://127.0.0.1:" + simulator.port();
                out.println("Target: the built-in llmload simulator at " + target + " (no GPU involved).");
                out.println("        To benchmark a real server: llmload run --url http://HOST:PORT --model NAME");
                out.flush();
            }
            if (resolved.outputDir() == null) {
                resolved = resolved.withOutputDir(BenchmarkRun.defaultOutputDir(target, resolved.load()));
            }
            return execute(resolved, target, apiKey, out);
        } finally {
            if (simulator != null) {
                simulator.close();
            }
        }
    }

    /**
     * A copy of this command whose unset options come from the config file, then the scenario:
     * the merged arguments are parsed again by picocli, so config values are checked exactly as
     * flags are.
     */
    private RunCommand withConfigApplied() {
        ConfigFile file = config == null ? null : ConfigFile.load(config);
        String scenarioName = scenario != null ? scenario : file == null ? null : file.option("scenario");
        Scenarios preset = scenarioName == null ? null : Scenarios.byName(scenarioName);
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        Set<String> givenNames = new java.util.HashSet<>();
        for (CommandLine.Model.OptionSpec option : given.matchedOptions()) {
            givenNames.add(ConfigFile.normalise(option.longestName()));
        }
        Map<String, String> fromPreset = new LinkedHashMap<>();
        if (preset != null) {
            preset.defaults().forEach((k, v) -> fromPreset.put(ConfigFile.normalise(k), v));
            boolean loadChosen = givenNames.stream().anyMatch(LOAD_OPTIONS::contains)
                    || (file != null && file.options().keySet().stream().anyMatch(LOAD_OPTIONS::contains));
            if (loadChosen) {
                fromPreset.keySet().removeAll(LOAD_OPTIONS);
            }
        }
        List<String> merged = new ArrayList<>();
        Set<String> known = new java.util.HashSet<>();
        for (CommandLine.Model.OptionSpec option : spec.options()) {
            String key = ConfigFile.normalise(option.longestName());
            known.add(key);
            if (givenNames.contains(key) || key.equals("config") || key.equals("scenario")) {
                continue;
            }
            String value = file != null && file.options().containsKey(key) ? file.options().get(key) : fromPreset.get(key);
            if (value == null) {
                continue;
            }
            if (option.arity().max() == 0) {
                if (Boolean.parseBoolean(value)) {
                    merged.add(option.longestName());
                }
            } else if (option.isMultiValue() && !option.typeInfo().isMap()) {
                for (String item : value.split(",")) {
                    merged.add(option.longestName() + "=" + item.trim());
                }
            } else {
                merged.add(option.longestName() + "=" + value);
            }
        }
        if (file != null) {
            for (String key : file.options().keySet()) {
                if (!known.contains(key)) {
                    throw new UsageException("--config " + config + ": unknown option '" + key + "'");
                }
            }
        }
        List<String> typed = argumentsOfThisCommand();
        merged.addAll(typed);
        RunCommand effective = new RunCommand();
        effective.configApplied = true;
        effective.scenario = scenarioName;
        effective.configMetadata = file == null ? Map.of() : file.metadata();
        effective.configNotes = file == null ? List.of() : file.notes();
        CommandLine parser = new CommandLine(effective);
        parser.setOut(spec.commandLine().getOut());
        parser.setErr(spec.commandLine().getErr());
        try {
            parser.parseArgs(merged.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new UsageException((config == null ? "--scenario " + scenarioName : "--config " + config) + ": "
                    + e.getMessage());
        }
        effective.originalArgs = typed;
        return effective;
    }

    private List<String> argumentsOfThisCommand() {
        return argumentsOf(spec);
    }

    /** The arguments after a subcommand's name (picocli's original arguments include it). */
    static List<String> argumentsOf(CommandLine.Model.CommandSpec command) {
        List<String> all = command.commandLine().getParseResult().originalArgs();
        int at = all.indexOf(command.name());
        return at < 0 ? all : all.subList(at + 1, all.size());
    }

    /** The arguments the user typed, for the report (the re-parsed command sees the merged ones). */
    private List<String> originalArgs;

    private int execute(RunConfig config, String target, String apiKey, PrintWriter out) throws Exception {
        Progress progress = new Progress(spec.commandLine().getErr(), config.numRequests());
        BenchmarkRun run = new BenchmarkRun(config, target, apiKey, commandLine(), VersionProvider.version(),
                progress::record);
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

    /**
     * The run these options describe, with {@code --config} and {@code --scenario} applied;
     * {@code llmload sweep} builds its points from it. The command must have been parsed by picocli.
     */
    RunConfig effectiveConfig() {
        return !configApplied && (config != null || scenario != null) ? withConfigApplied().resolve() : resolve();
    }

    /** Starts the built-in simulator with {@code --sim-config}; the caller closes it. */
    SimServer startSimulator() throws RunException {
        try {
            SimConfig simulator = SimConfig.load(simConfig, Map.of());
            return SimServer.start(simulator);
        } catch (RuntimeException e) {
            throw new RunException("cannot start the built-in simulator: " + e.getMessage(), e);
        }
    }

    RunConfig resolve() {
        LoadSpec load = loadSpec();
        Long requests = numRequests != null ? numRequests : duration == null && trace == null ? Long.valueOf(100) : null;
        if (requests != null && requests < 1) {
            throw new UsageException("--num-requests must be at least 1, got " + requests);
        }
        int warmupRequests = 0;
        Duration warmupTime = null;
        if (warmup.matches("\\d+")) {
            warmupRequests = Integer.parseInt(warmup);
            if (requests != null && warmupRequests >= requests) {
                throw new UsageException("--warmup must be fewer than --num-requests, got " + warmupRequests);
            }
        } else {
            try {
                warmupTime = Durations.parse(warmup);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--warmup: expected a request count or a time, " + e.getMessage());
            }
        }
        if (url != null) {
            try {
                dev.llmload.http.Endpoint.parse(url);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--url: " + e.getMessage());
            }
        }
        for (Path file : new Path[] {dataset, trace}) {
            if (file != null && !Files.isReadable(file)) {
                throw new UsageException("cannot read " + file);
            }
        }
        if (dataset != null && trace != null) {
            throw new UsageException("give --dataset or --trace, not both");
        }
        ApiKind apiKind;
        try {
            apiKind = ApiKind.parse(api);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--api: " + e.getMessage());
        }
        if (batchSize < 1) {
            throw new UsageException("--batch-size must be at least 1");
        }
        if (batchSize > 1 && !apiKind.neverStreams()) {
            throw new UsageException("--batch-size needs --api embeddings or rerank");
        }
        ImageInputs imageInputs;
        try {
            imageInputs = images == null ? null : ImageInputs.parse(images);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (imageInputs != null && apiKind != ApiKind.CHAT && apiKind != ApiKind.AUTO) {
            throw new UsageException("--images needs --api chat");
        }
        int threads = ioThreads != null ? ioThreads : Math.min(4, Runtime.getRuntime().availableProcessors());
        if (threads < 1) {
            throw new UsageException("--io-threads must be at least 1");
        }
        if (scrapeInterval.toMillis() < 100) {
            throw new UsageException("--scrape-interval must be at least 100ms");
        }
        for (String format : exports) {
            if (!format.equals("vllm")) {
                throw new UsageException("--export: unknown format '" + format + "' (expected vllm)");
            }
        }
        if (slo != null) {
            try {
                dev.llmload.metrics.Slo.parse(slo);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--slo: " + e.getMessage());
            }
        }
        Map<String, String> allMetadata = new LinkedHashMap<>(configMetadata);
        allMetadata.putAll(metadata);
        List<String> allNotes = new ArrayList<>(configNotes);
        allNotes.addAll(notes);
        TelemetrySpec telemetry = new TelemetrySpec(serverMetrics, serverKind, gpuMetrics,
                nvidiaSmi == null ? null : "nvidia-smi", nvidiaSmi == null ? Duration.ofSeconds(1) : nvidiaSmi,
                scrapeInterval);
        DataSpec data = new DataSpec(inputTokens, outputTokens, rangeRatio, dataset, datasetFormat, sharedPrefix, trace,
                traceSpeed, tokenizer, sessionSpec(load), batchSize, imageInputs);
        return new RunConfig(url, apiKind, model, !noStream, !noIgnoreEos, load, requests, duration, warmupRequests,
                warmupTime, data, seed, new Timeouts(connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout),
                telemetry, grace, outputDir, allMetadata, allNotes, insecure, threads, scenario, slo, exports);
    }

    /** The sessions of a {@code --sessions} run, checked; null without {@code --sessions}. */
    private SessionSpec sessionSpec(LoadSpec load) {
        if (sessions == null) {
            if (thinkTime != null || maxSessions != null) {
                throw new UsageException("--think-time and --max-sessions apply only with --sessions");
            }
            return null;
        }
        if (dataset != null || trace != null || sharedPrefix != null) {
            throw new UsageException("--sessions makes synthetic conversations; it cannot be combined with --dataset, "
                    + "--trace or --shared-prefix");
        }
        for (String[] spec : new String[][] {{"--sessions", sessions}, {"--think-time", thinkTime}}) {
            try {
                if (spec[1] != null) {
                    LengthDistribution.parse(spec[1]);
                }
            } catch (IllegalArgumentException e) {
                throw new UsageException(spec[0] + ": " + e.getMessage());
            }
        }
        return new SessionSpec(sessions, thinkTime, load.isOpen() ? maxSessions : load.concurrency());
    }

    private LoadSpec loadSpec() {
        String shapedArrival = ramp != null ? "ramp" : stages != null ? "stages" : bursts != null ? "bursts"
                : trace != null ? "trace" : null;
        long shapes = java.util.stream.Stream.of(ramp, stages, bursts, trace).filter(java.util.Objects::nonNull).count();
        if (shapes > 1) {
            throw new UsageException("give only one of --ramp, --stages, --bursts and --trace");
        }
        boolean open = requestRate != null || shapedArrival != null;
        if (sessions != null) {
            if (concurrency != null || concurrencyProfile != null || maxConcurrency != null) {
                throw new UsageException("with --sessions, --max-sessions bounds the sessions in flight; "
                        + "--concurrency, --concurrency-profile and --max-concurrency do not apply");
            }
            if (maxSessions != null && maxSessions < 1) {
                throw new UsageException("--max-sessions must be at least 1, got " + maxSessions);
            }
            if (!open) {
                return LoadSpec.closed(maxSessions == null ? 16 : maxSessions);
            }
        }
        if (open && (concurrency != null || concurrencyProfile != null)) {
            throw new UsageException("give either --concurrency (closed loop) or --request-rate / an arrival shape "
                    + "(open loop), not both");
        }
        if (burstiness != null && !(burstiness > 0)) {
            throw new UsageException("--burstiness must be positive, got " + burstiness);
        }
        if (maxConcurrency != null && maxConcurrency < 1) {
            throw new UsageException("--max-concurrency must be at least 1, got " + maxConcurrency);
        }
        if (open) {
            if (requestRate != null && (!(requestRate > 0) || requestRate.isInfinite())) {
                throw new UsageException("--request-rate must be a positive number, got " + requestRate);
            }
            String kind = shapedArrival != null ? shapedArrival : arrival;
            if (shapedArrival != null && !arrival.equals("poisson") && !arrival.equals(shapedArrival)) {
                throw new UsageException("--arrival " + arrival + " contradicts --" + shapedArrival);
            }
            String profile = ramp != null ? ramp : stages != null ? stages : bursts;
            LoadSpec spec = new LoadSpec("open", null, requestRate, kind, burstiness, maxConcurrency, profile);
            try {
                Traffic.plan(spec, 1, null, 0, new long[] {0}, 1.0);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return spec;
        }
        if (maxConcurrency != null) {
            throw new UsageException("--max-concurrency applies to open-loop runs; use --concurrency for a closed loop");
        }
        int n = concurrency == null ? 16 : concurrency;
        if (n < 1) {
            throw new UsageException("--concurrency must be at least 1, got " + n);
        }
        LoadSpec spec = new LoadSpec("closed", n, null, null, null, null, concurrencyProfile);
        try {
            Traffic.plan(spec, 1, null, 0, null, null);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return spec;
    }

    private String commandLine() {
        return commandLine("llmload run", originalArgs != null ? originalArgs : argumentsOfThisCommand());
    }

    /** {@code command} and its arguments as a shell would take them back, for reports. */
    static String commandLine(String command, List<String> args) {
        StringBuilder text = new StringBuilder(command);
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
