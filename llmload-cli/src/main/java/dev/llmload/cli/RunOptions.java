package dev.llmload.cli;

import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options that describe a run, shared by {@code llmload run} and {@code llmload sweep} (a
 * picocli mixin); {@link #KEYS} is the one table from these options to config-file keys, to what
 * a recorded configuration says and to the load-choosing set that a scenario yields to. The four
 * options a sweep spells its own way ({@code --concurrency}, {@code --request-rate}, {@code --slo},
 * {@code --output-dir}) are declared by {@code run} itself and listed here as points.
 */
public final class RunOptions {

    @Option(names = {"--url", "--base-url"}, paramLabel = "URL",
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

    @Option(names = "--header", paramLabel = "NAME:VALUE",
            description = "Send this header with every request, e.g. 'x-route: pool-a' (gateways, routing). Repeatable. "
                    + "Recorded, with the values of credentials (authorization, *key*, *token*, *secret*, cookie) redacted.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--extra-body", paramLabel = "JSON",
            description = "A JSON object whose fields are put into every request body over llmload's own, e.g. "
                    + "'{\"chat_template_kwargs\": {\"enable_thinking\": false}}'.")
    String extraBody;

    @Option(names = "--temperature", paramLabel = "T", description = "Sampling temperature. Default: the server's.")
    Double temperature;

    @Option(names = "--top-p", paramLabel = "P", description = "Nucleus sampling: top_p. Default: the server's.")
    Double topP;

    @Option(names = "--top-k", paramLabel = "K", description = "top_k sampling. Default: the server's.")
    Integer topK;

    @Option(names = "--stop", paramLabel = "TEXT", description = "A stop string. Repeatable. Default: none.")
    List<String> stop = new ArrayList<>();

    @Option(names = "--arrival", paramLabel = "KIND",
            description = "Open-loop arrivals: poisson, constant or gamma (ramp, stages, bursts and trace are chosen by their own "
                    + "flags). Default: poisson, or gamma when --burstiness is given.")
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
            description = "Gamma shape K of open-loop arrivals (1 = Poisson, < 1 burstier, > 1 more regular); "
                    + "implies --arrival gamma.")
    Double burstiness;

    @Option(names = "--max-concurrency", paramLabel = "N",
            description = "Open loop: at most N requests in flight; the others wait (shown as client queue time). "
                    + "Without a rate, as in vLLM: a closed loop of N.")
    Integer maxConcurrency;

    @Option(names = {"--num-requests", "--num-prompts"}, paramLabel = "N",
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

    @Option(names = {"--input-tokens", "--random-input-len"}, paramLabel = "DIST", defaultValue = "512",
            description = "Prompt length in tokens (with --sessions: of each new user message): N, uniform:MIN:MAX, "
                    + "normal:MEAN:STD, lognormal:MEAN:STD. Default: ${DEFAULT-VALUE}.")
    String inputTokens;

    @Option(names = {"--output-tokens", "--random-output-len"}, paramLabel = "DIST", defaultValue = "128",
            description = "max_tokens per request, as a length distribution. Default: ${DEFAULT-VALUE}.")
    String outputTokens;

    @Option(names = {"--range-ratio", "--random-range-ratio"}, paramLabel = "R",
            description = "As vLLM's --random-range-ratio: fixed lengths L become uniform on [L(1-R), L(1+R)].")
    Double rangeRatio;

    @Option(names = {"--dataset", "--dataset-path"}, paramLabel = "FILE",
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

    @Option(names = "--max-event-bytes", paramLabel = "BYTES", defaultValue = "1048576",
            description = "A stream event larger than this ends its response as a protocol failure. Default: ${DEFAULT-VALUE} (1 MiB).")
    long maxEventBytes;

    @Option(names = "--max-response-bytes", paramLabel = "BYTES", defaultValue = "67108864",
            description = "A response body larger than this is ended as a protocol failure. Default: ${DEFAULT-VALUE} (64 MiB).")
    long maxResponseBytes;

    @Option(names = "--max-tokens-factor", paramLabel = "N", defaultValue = "4",
            description = "A response with more than N x max_tokens + 64 token events is ended as a protocol failure. "
                    + "Default: ${DEFAULT-VALUE}.")
    int maxTokensFactor;

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

    @Option(names = "--stop-on-saturation",
            description = "Open loop: stop sending once the server is certainly saturated (its backlog past twice "
                    + "what the saturated note allows), with a note, instead of running the whole schedule.")
    boolean stopOnSaturation;

    @Option(names = "--gpu-hour-price", paramLabel = "PRICE",
            description = "What one of the server's GPUs costs per hour, with its currency, e.g. 2.49USD: report.json then "
                    + "gives the cost per million output and total tokens (docs/report.md, efficiency).")
    String gpuHourPrice;

    @Option(names = "--export", paramLabel = "FORMAT",
            description = "Also write the results in another tool's format: vllm (the file and keys of vllm bench "
                    + "serve --save-result --save-detailed, e.g. openai-chat-infqps-concurrency16-<model>-<date>.json). "
                    + "Repeatable.")
    List<String> exports = new ArrayList<>();

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

    @Option(names = "--segment", paramLabel = "I/N",
            description = "Send segment I (0 to N-1) of a run spread over N hosts; auto/N takes I from "
                    + "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job). Merge the segments with llmload merge "
                    + "(docs/distributed.md).")
    String segment;

    @Option(names = "--start-at", paramLabel = "INSTANT",
            description = "Get ready, then start the clock at this wall-clock instant: RFC 3339 "
                    + "(2026-12-01T10:00:00Z), or +DELAY after LLMLOAD_START_BASE, shared by every segment.")
    String startAt;

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

    /** Metadata and notes a config file added, and the arguments the user typed; set once --config is merged. */
    private Map<String, String> configMetadata = Map.of();
    private List<String> configNotes = List.of();
    private boolean configApplied;
    private List<String> typedArgs;

    /**
     * One option as a config key.
     *
     * @param option      the long name without dashes, as YAML files, presets and the CLI spell it
     * @param choosesLoad whether it chooses the load model (a scenario's load keys yield to any of these)
     * @param point       whether {@code sweep} spells it its own way, so a config file's value is not its
     * @param recorded    its value in a recorded configuration, as it would be typed; null when unset or not replayed
     */
    record Key(String option, boolean choosesLoad, boolean point, Function<RunConfig, Object> recorded) {

        String normalised() {
            return ConfigFile.normalise(option);
        }

        /** The recorded value as typed text, one item per value of a repeatable option; null when unset. */
        List<String> recordedValues(RunConfig config) {
            Object value = recorded.apply(config);
            if (value instanceof List<?> list) {
                return list.isEmpty() ? null : list.stream().map(String::valueOf).toList();
            }
            return value == null ? null : List.of(value.toString());
        }
    }

    /**
     * Every run option. Adding one means: its {@code @Option} field above, its row here, and its
     * setter in {@link RunConfig.Builder} with the check in its record (docs/architecture.md).
     */
    static final List<Key> KEYS = List.of(
            key("url", c -> c.target().url()),
            key("api", c -> c.target().api().cliName()),
            key("model", c -> c.target().model()),
            key("no-stream", c -> flag(!c.target().stream())),
            key("no-ignore-eos", c -> flag(!c.target().ignoreEos())),
            // Headers recorded redacted are not repeated (RunConfig's record drops them): give them again.
            key("header", c -> c.target().extras().headers().entrySet().stream()
                    .map(h -> h.getKey() + ":" + h.getValue()).toList()),
            key("extra-body", c -> c.target().extras().extraBody()),
            key("temperature", c -> c.target().extras().temperature()),
            key("top-p", c -> c.target().extras().topP()),
            key("top-k", c -> c.target().extras().topK()),
            key("stop", c -> c.target().extras().stop()),
            new Key("concurrency", true, true, c -> c.load() instanceof Load.Closed closed && c.sessions() == null
                    ? closed.concurrency() : null),
            new Key("request-rate", true, true, c -> c.load().requestRate()),
            load("arrival", c -> c.load() instanceof Load.Open open && !open.arrival().shaped()
                    ? open.arrival().cliName() : null),
            load("ramp", c -> profile(c, Load.Arrival.RAMP)),
            load("stages", c -> profile(c, Load.Arrival.STAGES)),
            load("bursts", c -> profile(c, Load.Arrival.BURSTS)),
            load("concurrency-profile", c -> c.load() instanceof Load.Closed closed ? closed.profile() : null),
            load("burstiness", c -> c.load() instanceof Load.Open open ? open.burstiness() : null),
            load("max-concurrency", c -> c.load().maxConcurrency()),
            key("num-requests", c -> c.bounds().numRequests()),
            key("duration", c -> c.bounds().duration()),
            key("warmup", c -> c.bounds().warmupTime() != null ? c.bounds().warmupTime() : c.bounds().warmup()),
            key("input-tokens", c -> c.data().inputTokens().text()),
            key("output-tokens", c -> c.data().outputTokens().text()),
            key("range-ratio", c -> c.data().rangeRatio()),
            key("dataset", c -> c.data().dataset()),
            key("dataset-format", c -> c.data().datasetFormat()),
            key("shared-prefix", c -> c.data().sharedPrefix()),
            load("trace", c -> c.load() instanceof Load.Trace trace ? trace.file() : null),
            key("trace-speed", c -> c.load() instanceof Load.Trace trace ? trace.speed() : null),
            load("sessions", c -> c.sessions() == null ? null : c.sessions().turns().text()),
            key("think-time", c -> c.sessions() == null || c.sessions().thinkTimeMs() == null ? null
                    : c.sessions().thinkTimeMs().text()),
            load("max-sessions", c -> c.sessions() == null ? null : c.sessions().maxSessions()),
            key("tokenizer", c -> c.data().tokenizer()),
            key("batch-size", c -> c.data().batchSize()),
            key("images", c -> c.data().images() == null ? null : c.data().images().count() + ":"
                    + c.data().images().width() + "x" + c.data().images().height()),
            key("seed", RunConfig::seed),
            key("connect-timeout", c -> c.bounds().timeouts().connect()),
            key("first-token-timeout", c -> c.bounds().timeouts().firstToken()),
            key("idle-timeout", c -> c.bounds().timeouts().idle()),
            key("request-timeout", c -> c.bounds().timeouts().total()),
            key("max-event-bytes", c -> c.bounds().timeouts().limits().maxEventBytes()),
            key("max-response-bytes", c -> c.bounds().timeouts().limits().maxResponseBytes()),
            key("max-tokens-factor", c -> c.bounds().timeouts().limits().tokenFactor()),
            key("server-metrics", c -> c.telemetry().serverMetrics()),
            key("server-kind", c -> c.telemetry().serverKind()),
            key("gpu-metrics", c -> c.telemetry().gpuMetrics()),
            key("nvidia-smi", c -> c.telemetry().nvidiaSmi()),
            key("scrape-interval", c -> c.telemetry().scrapeInterval()),
            key("grace", c -> c.bounds().grace()),
            key("stop-on-saturation", c -> flag(c.bounds().stopOnSaturation())),
            new Key("slo", false, true, c -> c.slo() == null ? null : c.slo().text()),
            key("export", c -> c.output().exports()),
            key("gpu-hour-price", c -> c.output().gpuHourPrice() == null ? null : c.output().gpuHourPrice().text()),
            // A repeat writes a run directory of its own; metadata and notes travel as the file's sections.
            new Key("output-dir", false, true, c -> null),
            new Key("overwrite", false, true, c -> null),
            new Key("quiet", false, true, c -> null),
            new Key("json", false, true, c -> null),
            // What fails a finished run for CI: a verdict on the run, not part of its configuration.
            new Key("max-error-rate", false, true, c -> null),
            new Key("fail-if", false, true, c -> null),
            new Key("baseline", false, true, c -> null),
            // Repeats are a way of running, not part of the run a report.json records.
            new Key("repeat", false, true, c -> null),
            key("metadata", c -> null),
            key("note", c -> null),
            key("api-key-file", c -> null),
            key("insecure", c -> flag(c.target().insecure())),
            key("io-threads", c -> c.client().ioThreads()),
            key("segment", c -> c.client().segment()),
            // A repeat starts when it is ready: the recorded instant has passed.
            key("start-at", c -> null),
            key("scenario", RunConfig::scenario),
            key("config", c -> null),
            key("sim-config", c -> null));

    private static Key key(String option, Function<RunConfig, Object> recorded) {
        return new Key(option, false, false, recorded);
    }

    private static Key load(String option, Function<RunConfig, Object> recorded) {
        return new Key(option, true, false, recorded);
    }

    private static String flag(boolean set) {
        return set ? "true" : null;
    }

    private static String profile(RunConfig config, Load.Arrival arrival) {
        return config.load() instanceof Load.Open open && open.arrival() == arrival ? open.profile() : null;
    }

    /**
     * An option's own name: the first of its names; the others are the spellings of other tools
     * ({@code --num-prompts} for {@code --num-requests}), never config keys.
     */
    static String canonicalName(CommandLine.Model.OptionSpec option) {
        return option.names()[0];
    }

    /** The key of a long option name in any spelling, or null. */
    static Key key(String name) {
        String normalised = ConfigFile.normalise(name);
        return KEYS.stream().filter(k -> k.normalised().equals(normalised)).findFirst().orElse(null);
    }

    /**
     * These options as a configuration to finish: the caller adds the points (load, SLO, directory)
     * and builds; a bad value or combination is a {@link dev.llmload.config.ConfigException}, which
     * the command line reports as a usage error.
     */
    RunConfig.Builder builder() {
        Map<String, String> allMetadata = new LinkedHashMap<>(configMetadata);
        allMetadata.putAll(metadata);
        List<String> allNotes = new ArrayList<>(configNotes);
        allNotes.addAll(notes);
        return RunConfig.builder().url(url).api(api).model(model).stream(!noStream).ignoreEos(!noIgnoreEos)
                .headers(headers).extraBody(extraBody).temperature(temperature).topP(topP).topK(topK).stop(stop)
                .arrival(arrival).ramp(ramp).stages(stages).bursts(bursts).concurrencyProfile(concurrencyProfile)
                .burstiness(burstiness).maxConcurrency(maxConcurrency).numRequests(numRequests).duration(duration)
                .warmup(warmup).inputTokens(inputTokens).outputTokens(outputTokens).rangeRatio(rangeRatio)
                .dataset(dataset).datasetFormat(datasetFormat).sharedPrefix(sharedPrefix).trace(trace)
                .traceSpeed(traceSpeed).sessions(sessions).thinkTime(thinkTime).maxSessions(maxSessions)
                .tokenizer(tokenizer).batchSize(batchSize).images(images).seed(seed).connectTimeout(connectTimeout).firstTokenTimeout(firstTokenTimeout)
                .idleTimeout(idleTimeout).requestTimeout(requestTimeout)
                .maxEventBytes(maxEventBytes).maxResponseBytes(maxResponseBytes).maxTokensFactor(maxTokensFactor).serverMetrics(serverMetrics)
                .serverKind(serverKind).gpuMetrics(gpuMetrics).nvidiaSmi(nvidiaSmi).scrapeInterval(scrapeInterval)
                .grace(grace).stopOnSaturation(stopOnSaturation).exports(exports).gpuHourPrice(gpuHourPrice).metadata(allMetadata).notes(allNotes).insecure(insecure).apiKeyFile(apiKeyFile)
                .ioThreads(ioThreads).segment(segment).startAt(startAt).scenario(scenario);
    }

    /** Whether {@code --config} or {@code --scenario} still has to be merged in (see {@link #withConfig}). */
    boolean configPending() {
        return !configApplied && (config != null || scenario != null);
    }

    /** The arguments the user typed after the command's name, for the report's command line. */
    List<String> typedArguments(CommandLine.Model.CommandSpec command) {
        return typedArgs != null ? typedArgs : argumentsOf(command);
    }

    /** The arguments after a subcommand's name (picocli's original arguments include it). */
    static List<String> argumentsOf(CommandLine.Model.CommandSpec command) {
        List<String> all = command.commandLine().getParseResult().originalArgs();
        int at = all.indexOf(command.name());
        return at < 0 ? all : all.subList(at + 1, all.size());
    }

    /**
     * A fresh command whose unset run options come from the config file, then the scenario: the
     * values are put before the user's own arguments and picocli parses them all again, so config
     * values are converted and checked exactly as flags are.
     *
     * @param command the command as parsed, with these options mixed in
     * @param fresh   makes an unparsed instance of the command
     * @param options finds the fresh command's run options
     * @param points  whether the point options ({@link Key#point}) are the run's own (false for a sweep)
     */
    <T> T withConfig(CommandLine.Model.CommandSpec command, Supplier<T> fresh, Function<T, RunOptions> options,
                     boolean points) {
        ConfigFile file = config == null ? null : ConfigFile.load(config);
        String scenarioName = scenario != null ? scenario : file == null ? null : file.option("scenario");
        Scenarios preset = scenarioName == null ? null : Scenarios.byName(scenarioName);
        Set<String> given = new HashSet<>();
        for (CommandLine.Model.OptionSpec option : command.commandLine().getParseResult().matchedOptions()) {
            given.add(ConfigFile.normalise(canonicalName(option)));
            String implied = VllmOptions.NATIVE.get(canonicalName(option));
            if (implied != null) {
                given.add(ConfigFile.normalise(implied));
            }
        }
        Map<String, String> fromPreset = new LinkedHashMap<>();
        if (preset != null) {
            preset.defaults().forEach((k, v) -> fromPreset.put(ConfigFile.normalise(k), v));
            boolean loadChosen = KEYS.stream().filter(Key::choosesLoad).map(Key::normalised)
                    .anyMatch(k -> given.contains(k) || (file != null && file.options().containsKey(k)));
            if (loadChosen) {
                KEYS.stream().filter(Key::choosesLoad).map(Key::normalised).forEach(fromPreset::remove);
            }
        }
        if (file != null) {
            for (String key : file.options().keySet()) {
                if (key(key) == null) {
                    throw new UsageException("--config " + config + ": unknown option '" + key + "'");
                }
            }
        }
        List<String> merged = new ArrayList<>();
        if (scenario == null && scenarioName != null) {
            merged.add("--scenario=" + scenarioName);
        }
        for (Key key : KEYS) {
            String name = key.normalised();
            if (given.contains(name) || (key.point() && !points) || name.equals("config") || name.equals("scenario")) {
                continue;
            }
            List<String> values = file != null && file.options().containsKey(name) ? file.options().get(name)
                    : fromPreset.containsKey(name) ? List.of(fromPreset.get(name)) : null;
            CommandLine.Model.OptionSpec option = command.findOption("--" + key.option());
            if (values == null || option == null) {
                continue;
            }
            if (option.arity().max() == 0) {
                if (Boolean.parseBoolean(values.getFirst())) {
                    merged.add(canonicalName(option));
                }
            } else if (option.isMultiValue() && !option.typeInfo().isMap()) {
                // One flag per value: a header's or a stop string's commas are its own.
                values.forEach(item -> merged.add(canonicalName(option) + "=" + item));
            } else {
                // A list for a single-valued option is the comma list the flag takes (e.g. slo).
                merged.add(canonicalName(option) + "=" + String.join(",", values));
            }
        }
        List<String> typed = argumentsOf(command);
        merged.addAll(typed);
        T effective = fresh.get();
        CommandLine parser = new CommandLine(effective);
        parser.setOut(command.commandLine().getOut());
        parser.setErr(command.commandLine().getErr());
        try {
            parser.parseArgs(merged.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new UsageException((config == null ? "--scenario " + scenarioName : "--config " + config) + ": "
                    + e.getMessage());
        }
        RunOptions merge = options.apply(effective);
        merge.configApplied = true;
        merge.configMetadata = file == null ? Map.of() : file.metadata();
        merge.configNotes = file == null ? List.of() : file.notes();
        merge.typedArgs = typed;
        return effective;
    }
}
