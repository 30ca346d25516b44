package dev.llmload.config;

import static dev.llmload.config.RunOption.Use.COMMAND;
import static dev.llmload.config.RunOption.Use.CONFIG;

import dev.llmload.config.RunOption.Report;
import dev.llmload.config.RunOption.Value;
import dev.llmload.load.ResponseLimits;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Every run option, one row each, in the order of {@code llmload run --help}: the one place an
 * option's names, type, default, help, report.json key and recorded value are written. The
 * command line makes its flags from these rows, {@link RunConfig.Builder} keeps values under them
 * and takes their defaults from them, a YAML config file's keys are their names, and a replayed
 * report.json gives each row the value {@link RunOption#replayed} reads back. Adding an option is
 * a row here plus the component and check in its record (docs/architecture.md).
 */
public final class OptionTable {

    private OptionTable() {}

    // The four a sweep spells its own way (lists, percentile limits, a sweep directory): points.

    public static final RunOption<Integer> CONCURRENCY = new RunOption<>(
            "concurrency",
            List.of(),
            "N",
            Value.INT,
            null,
            "Closed loop: keep N requests in flight. Default: 16 when --request-rate is not given.",
            key("load.concurrency"),
            CONFIG,
            true,
            true,
            c -> c.load() instanceof Load.Closed closed && c.sessions() == null ? closed.concurrency() : null);

    public static final RunOption<Double> REQUEST_RATE = new RunOption<>(
            "request-rate",
            List.of(),
            "R",
            Value.RATE,
            null,
            "Open loop: send R requests (with --sessions: start R sessions) per second on a precomputed "
                    + "schedule, whatever the server does. inf, as in vLLM: every request at once, behind "
                    + "--max-concurrency if given (a closed loop).",
            key("load.request_rate"),
            CONFIG,
            true,
            true,
            c -> c.load().requestRate());

    public static final RunOption<String> SLO = new RunOption<>(
            "slo",
            List.of(),
            "LIMITS",
            Value.TEXT,
            null,
            "Per-request limits in ms for goodput, any of ttft, tpot, e2e: e.g. ttft:500,tpot:50,e2e:3000. "
                    + "A request meets the SLO when it succeeded within every limit. Percentile limits as llmload "
                    + "sweep takes them (p99_ttft:1000, error_rate:0.01) are accepted too: the run is then judged "
                    + "against them.",
            key("slo"),
            CONFIG,
            false,
            true,
            c -> c.slo() == null ? null : c.slo().text());

    public static final RunOption<Path> OUTPUT_DIR = new RunOption<>(
            "output-dir",
            List.of("result-dir"),
            "DIR",
            Value.PATH,
            null,
            "Run directory. Default: results/<timestamp>-<target>-<load>.",
            key("output_dir"),
            CONFIG,
            false,
            true,
            // A repeat writes a run directory of its own.
            c -> null);

    // The target and what each request asks.

    public static final RunOption<String> URL = new RunOption<>(
            "url",
            List.of("base-url"),
            "URL",
            Value.TEXT,
            null,
            "Server to benchmark, e.g. http://127.0.0.1:8000 (the /v1 prefix is added unless present). "
                    + "Absent: the built-in simulator.",
            key("url"),
            CONFIG,
            false,
            false,
            c -> c.target().url() == null ? null : c.target().url().text());

    public static final RunOption<String> API = new RunOption<>(
            "api",
            List.of(),
            "API",
            Value.TEXT,
            "auto",
            "The API to speak: chat, completions (OpenAI-compatible), tgi, triton, ollama, ollama-chat, "
                    + "llamacpp, sglang (native engine APIs), anthropic, responses, embeddings, rerank, or auto: chat "
                    + "when the server lists a model on /v1/models, else stop and name the native --api it answers. "
                    + "docs/cli.md lists each. Default: ${DEFAULT-VALUE}.",
            key("api"),
            CONFIG,
            false,
            false,
            c -> c.target().api().cliName());

    public static final RunOption<Integer> BATCH_SIZE = new RunOption<>(
            "batch-size",
            List.of(),
            "N",
            Value.INT,
            "1",
            "Inputs per request for --api embeddings (texts) and rerank (documents). Default: ${DEFAULT-VALUE}.",
            key("data.batch_size"),
            CONFIG,
            false,
            false,
            c -> c.data().batchSize());

    public static final RunOption<String> IMAGES = new RunOption<>(
            "images",
            List.of(),
            "N:WxH",
            Value.TEXT,
            null,
            "Attach N synthetic PNG images of W x H pixels to every chat request, as data URLs (vision "
                    + "models); made from --seed and the request, so a seeded run sends the same images.",
            key("data.images"),
            CONFIG,
            false,
            false,
            c -> c.data().images() == null
                    ? null
                    : c.data().images().count() + ":" + c.data().images().width() + "x"
                            + c.data().images().height());

    public static final RunOption<String> MODEL = new RunOption<>(
            "model",
            List.of(),
            "NAME",
            Value.TEXT,
            null,
            "Model name to send. Default: the first model the server lists on /v1/models.",
            key("model"),
            CONFIG,
            false,
            false,
            c -> c.target().model());

    public static final RunOption<Boolean> NO_STREAM = new RunOption<>(
            "no-stream",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Ask for whole (non-streamed) responses; TTFT, ITL and TPOT are then not measured.",
            key("stream"),
            CONFIG,
            false,
            false,
            c -> flag(!c.target().stream()));

    public static final RunOption<Boolean> NO_IGNORE_EOS = new RunOption<>(
            "no-ignore-eos",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Do not send ignore_eos: the server may stop before --output-tokens.",
            key("ignore_eos"),
            CONFIG,
            false,
            false,
            c -> flag(!c.target().ignoreEos()));

    public static final RunOption<List<String>> HEADER = new RunOption<>(
            "header",
            List.of(),
            "NAME:VALUE",
            Value.TEXTS,
            null,
            "Send this header with every request, e.g. 'x-route: pool-a' (gateways, routing). Repeatable. "
                    + "Recorded, with the values of credentials (authorization, *key*, *token*, *secret*, cookie) redacted.",
            key("headers"),
            CONFIG,
            false,
            false,
            // Headers recorded redacted are not repeated (the layout drops them): give them again.
            c -> c.target().extras().headers().entrySet().stream()
                    .map(h -> h.getKey() + ":" + h.getValue())
                    .toList());

    public static final RunOption<String> EXTRA_BODY = new RunOption<>(
            "extra-body",
            List.of(),
            "JSON",
            Value.TEXT,
            null,
            "A JSON object whose fields are put into every request body over llmload's own, e.g. "
                    + "'{\"chat_template_kwargs\": {\"enable_thinking\": false}}'.",
            key("extra_body"),
            CONFIG,
            false,
            false,
            c -> c.target().extras().extraBody());

    public static final RunOption<Double> TEMPERATURE = new RunOption<>(
            "temperature",
            List.of(),
            "T",
            Value.DOUBLE,
            null,
            "Sampling temperature. Default: the server's.",
            key("temperature"),
            CONFIG,
            false,
            false,
            c -> c.target().extras().temperature());

    public static final RunOption<Double> TOP_P = new RunOption<>(
            "top-p",
            List.of(),
            "P",
            Value.DOUBLE,
            null,
            "Nucleus sampling: top_p. Default: the server's.",
            key("top_p"),
            CONFIG,
            false,
            false,
            c -> c.target().extras().topP());

    public static final RunOption<Integer> TOP_K = new RunOption<>(
            "top-k",
            List.of(),
            "K",
            Value.INT,
            null,
            "top_k sampling. Default: the server's.",
            key("top_k"),
            CONFIG,
            false,
            false,
            c -> c.target().extras().topK());

    public static final RunOption<List<String>> STOP = new RunOption<>(
            "stop",
            List.of(),
            "TEXT",
            Value.TEXTS,
            null,
            "A stop string. Repeatable. Default: none.",
            key("stop"),
            CONFIG,
            false,
            false,
            c -> c.target().extras().stop());

    // The load.

    public static final RunOption<String> ARRIVAL = new RunOption<>(
            "arrival",
            List.of(),
            "KIND",
            Value.TEXT,
            null,
            "Open-loop arrivals: poisson, constant or gamma (ramp, stages, bursts and trace are chosen by their own "
                    + "flags). Default: poisson, or gamma when --burstiness is given.",
            key("load.arrival"),
            CONFIG,
            true,
            false,
            c -> c.load() instanceof Load.Open open && !open.arrival().shaped()
                    ? open.arrival().cliName()
                    : null);

    public static final RunOption<String> RAMP = new RunOption<>(
            "ramp",
            List.of(),
            "FROM:TO:TIME[:exponential]",
            Value.TEXT,
            null,
            "Open loop with a rate moving from FROM to TO req/s over TIME (sets --arrival ramp); "
                    + "add :poisson for random gaps.",
            key("load.profile"),
            CONFIG,
            true,
            false,
            c -> profile(c, Load.Arrival.RAMP));

    public static final RunOption<String> STAGES = new RunOption<>(
            "stages",
            List.of(),
            "RATE:TIME,...",
            Value.TEXT,
            null,
            "Open loop in steady stages, e.g. 5:30s,10:30s,20:30s (sets --arrival stages).",
            key("load.profile"),
            CONFIG,
            true,
            false,
            c -> profile(c, Load.Arrival.STAGES));

    public static final RunOption<String> BURSTS = new RunOption<>(
            "bursts",
            List.of(),
            "BASE:SIZE:PERIOD",
            Value.TEXT,
            null,
            "Open loop: SIZE requests at once every PERIOD on top of a Poisson BASE rate, e.g. 2:20:10s "
                    + "(sets --arrival bursts).",
            key("load.profile"),
            CONFIG,
            true,
            false,
            c -> profile(c, Load.Arrival.BURSTS));

    public static final RunOption<String> CONCURRENCY_PROFILE = new RunOption<>(
            "concurrency-profile",
            List.of(),
            "PROFILE",
            Value.TEXT,
            null,
            "Closed loop whose concurrency changes: ramp:FROM:TO:TIME or steps N:TIME,N:TIME,...",
            key("load.profile"),
            CONFIG,
            true,
            false,
            c -> c.load() instanceof Load.Closed closed ? closed.profile() : null);

    public static final RunOption<Double> BURSTINESS = new RunOption<>(
            "burstiness",
            List.of(),
            "K",
            Value.DOUBLE,
            null,
            "Gamma shape K of open-loop arrivals (1 = Poisson, < 1 burstier, > 1 more regular); "
                    + "implies --arrival gamma.",
            key("load.burstiness"),
            CONFIG,
            true,
            false,
            c -> c.load() instanceof Load.Open open ? open.burstiness() : null);

    public static final RunOption<Integer> MAX_CONCURRENCY = new RunOption<>(
            "max-concurrency",
            List.of(),
            "N",
            Value.INT,
            null,
            "Open loop: at most N requests in flight; the others wait (shown as client queue time). "
                    + "Without a rate, as in vLLM: a closed loop of N.",
            key("load.max_concurrency"),
            CONFIG,
            true,
            false,
            c -> c.load().maxConcurrency());

    // How long a run lasts.

    public static final RunOption<Long> NUM_REQUESTS = new RunOption<>(
            "num-requests",
            List.of("num-prompts"),
            "N",
            Value.LONG,
            null,
            "Requests to send (with --sessions: turns), warm-up included. Default: 100, or "
                    + "unbounded when --duration is given.",
            key("num_requests"),
            CONFIG,
            false,
            false,
            c -> c.bounds().numRequests());

    public static final RunOption<Duration> DURATION = new RunOption<>(
            "duration",
            List.of(),
            "TIME",
            Value.TIME,
            null,
            "Stop sending after this long (e.g. 30s, 5m). With --num-requests, the first bound wins.",
            key("duration"),
            CONFIG,
            false,
            false,
            c -> c.bounds().duration());

    public static final RunOption<String> WARMUP = new RunOption<>(
            "warmup",
            List.of(),
            "N|TIME",
            Value.TEXT,
            "0",
            "Warm-up left out of the statistics but kept in the journal (flagged): the first N requests, "
                    + "or the requests intended to start in the first TIME (e.g. 30s). Default: ${DEFAULT-VALUE}.",
            key("warmup"),
            CONFIG,
            false,
            false,
            c -> c.bounds().warmupTime() != null
                    ? c.bounds().warmupTime()
                    : c.bounds().warmup());

    // The data.

    public static final RunOption<String> INPUT_TOKENS = new RunOption<>(
            "input-tokens",
            List.of("random-input-len"),
            "DIST",
            Value.TEXT,
            "512",
            "Prompt length in tokens (with --sessions: of each new user message): N, "
                    + "uniform:MIN:MAX, normal:MEAN:STD, lognormal:MEAN:STD. Default: ${DEFAULT-VALUE}.",
            key("data.input_tokens"),
            CONFIG,
            false,
            false,
            c -> c.data().inputTokens().text());

    public static final RunOption<String> OUTPUT_TOKENS = new RunOption<>(
            "output-tokens",
            List.of("random-output-len"),
            "DIST",
            Value.TEXT,
            "128",
            "max_tokens per request, as a length distribution. Default: ${DEFAULT-VALUE}.",
            key("data.output_tokens"),
            CONFIG,
            false,
            false,
            c -> c.data().outputTokens().text());

    public static final RunOption<Double> RANGE_RATIO = new RunOption<>(
            "range-ratio",
            List.of("random-range-ratio"),
            "R",
            Value.DOUBLE,
            null,
            "As vLLM's --random-range-ratio: fixed lengths L become uniform on [L(1-R), L(1+R)].",
            key("data.range_ratio"),
            CONFIG,
            false,
            false,
            c -> c.data().rangeRatio());

    public static final RunOption<Path> DATASET = new RunOption<>(
            "dataset",
            List.of("dataset-path"),
            "FILE",
            Value.PATH,
            null,
            "Prompts from a file instead of synthetic ones: JSONL ({\"prompt\":...} or "
                    + "{\"messages\":[...]}, optional \"output_tokens\") or a ShareGPT JSON array.",
            key("data.dataset"),
            CONFIG,
            false,
            false,
            c -> c.data().dataset());

    public static final RunOption<String> DATASET_FORMAT = new RunOption<>(
            "dataset-format",
            List.of(),
            "FORMAT",
            Value.TEXT,
            null,
            "jsonl or sharegpt. Default: told from the file (a JSON array is ShareGPT).",
            key("data.dataset_format"),
            CONFIG,
            false,
            false,
            c -> c.data().datasetFormat());

    public static final RunOption<String> SHARED_PREFIX = new RunOption<>(
            "shared-prefix",
            List.of(),
            "N:TOKENS[:zipf:S]",
            Value.TEXT,
            null,
            "Synthetic prompts start with one of N shared prefixes of TOKENS "
                    + "tokens, spread uniformly or by Zipf, to measure prefix caching.",
            key("data.shared_prefix"),
            CONFIG,
            false,
            false,
            c -> c.data().sharedPrefix());

    public static final RunOption<Path> TRACE = new RunOption<>(
            "trace",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "Replay a JSONL or CSV trace (timestamp ms, input_length, output_length, optional hash_ids) "
                    + "at its own timestamps (sets --arrival trace).",
            key("data.trace"),
            CONFIG,
            true,
            false,
            c -> c.load() instanceof Load.Trace trace ? trace.file() : null);

    public static final RunOption<Double> TRACE_SPEED = new RunOption<>(
            "trace-speed",
            List.of(),
            "X",
            Value.DOUBLE,
            "1",
            "Replay the trace X times faster. Default: ${DEFAULT-VALUE}.",
            key("data.trace_speed"),
            CONFIG,
            false,
            false,
            c -> c.load() instanceof Load.Trace trace ? trace.speed() : null);

    public static final RunOption<String> TRACE_FORMAT = new RunOption<>(
            "trace-format",
            List.of(),
            "NAME",
            Value.TEXT,
            null,
            "The --trace file's format: mooncake (independent requests) or llmload-sessions (sessions of turns "
                    + "with delays, tool waits and subagents; docs/workloads.md). Default: told by the first entry.",
            key("data.trace_format"),
            CONFIG,
            false,
            false,
            c -> c.load() instanceof Load.Trace trace ? trace.format() : null);

    public static final RunOption<String> SESSIONS = new RunOption<>(
            "sessions",
            List.of(),
            "TURNS",
            Value.TEXT,
            null,
            "Multi-turn chat sessions of TURNS turns each (a length distribution, e.g. 3 or uniform:2:6). "
                    + "Each turn sends the whole history with the model's actual answers plus a new user message of "
                    + "--input-tokens; the next turn follows the answer after --think-time. Sessions start at the "
                    + "--request-rate arrivals, or --max-sessions are kept in flight (closed loop). A failed turn ends "
                    + "its session. --num-requests counts turns.",
            key("data.sessions.turns"),
            CONFIG,
            true,
            false,
            c -> c.sessions() == null ? null : c.sessions().turns().text());

    public static final RunOption<String> THINK_TIME = new RunOption<>(
            "think-time",
            List.of(),
            "DIST_MS",
            Value.TEXT,
            null,
            "With --sessions: pause in ms between an answer's end and the next turn, a length distribution "
                    + "(e.g. 2000 or uniform:1000:5000). Default: none.",
            key("data.sessions.think_time_ms"),
            CONFIG,
            false,
            false,
            c -> c.sessions() == null || c.sessions().thinkTimeMs() == null
                    ? null
                    : c.sessions().thinkTimeMs().text());

    public static final RunOption<Integer> SYSTEM_PROMPT_TOKENS = new RunOption<>(
            "system-prompt-tokens",
            List.of(),
            "N",
            Value.INT,
            null,
            "With --sessions: every session starts with the same system prompt of N tokens (an agent's "
                    + "instructions and tool schemas), a prefix all sessions share. Default: none.",
            key("data.sessions.system_prompt_tokens"),
            CONFIG,
            false,
            false,
            c -> c.sessions() == null || c.sessions().agent() == null
                    ? null
                    : c.sessions().agent().systemPromptTokens());

    public static final RunOption<Double> SUBAGENT_PROBABILITY = new RunOption<>(
            "subagent-probability",
            List.of(),
            "P",
            Value.DOUBLE,
            null,
            "With --sessions: the chance that a turn before a session's last forks subagents; each starts "
                    + "from the session's context with its own turns, and the session's next turn waits for them "
                    + "all. Default: 0.",
            key("data.sessions.subagent_probability"),
            CONFIG,
            false,
            false,
            c -> c.sessions() == null || c.sessions().agent() == null
                    ? null
                    : c.sessions().agent().subagentProbability());

    public static final RunOption<String> SUBAGENT_FANOUT = new RunOption<>(
            "subagent-fanout",
            List.of(),
            "DIST",
            Value.TEXT,
            null,
            "With --subagent-probability: subagents per fork, a length distribution (e.g. 2 or uniform:1:3). "
                    + "Default: 1.",
            key("data.sessions.subagent_fanout"),
            CONFIG,
            false,
            false,
            c -> c.sessions() == null
                            || c.sessions().agent() == null
                            || c.sessions().agent().subagentFanout() == null
                    ? null
                    : c.sessions().agent().subagentFanout().text());

    public static final RunOption<Integer> MAX_SESSIONS = new RunOption<>(
            "max-sessions",
            List.of(),
            "N",
            Value.INT,
            null,
            "With --sessions: at most N sessions in flight. Closed loop: N sessions are kept in flight "
                    + "(default 16). Open loop: a session due while N are running waits (client queue time); default: "
                    + "no limit.",
            key("data.sessions.max_sessions"),
            CONFIG,
            true,
            false,
            c -> c.sessions() == null ? null : c.sessions().maxSessions());

    public static final RunOption<String> TOKENIZER = new RunOption<>(
            "tokenizer",
            List.of(),
            "NAME",
            Value.TEXT,
            Tokenizers.DEFAULT,
            "Tokenizer for synthetic prompts and local counts: cl100k_base, o200k_base, "
                    + "p50k_base, r50k_base, or a path to a HuggingFace tokenizer.json. Default: ${DEFAULT-VALUE}.",
            key("data.tokenizer"),
            CONFIG,
            false,
            false,
            c -> c.data().tokenizer());

    public static final RunOption<Long> SEED = new RunOption<>(
            "seed",
            List.of(),
            "N",
            Value.LONG,
            "0",
            "Seeds prompts, lengths and arrival times; the same seed repeats the same run. Default: ${DEFAULT-VALUE}.",
            key("seed"),
            CONFIG,
            false,
            false,
            RunConfig::seed);

    // Limits on each request.

    public static final RunOption<Duration> CONNECT_TIMEOUT = new RunOption<>(
            "connect-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            "10s",
            "Limit on opening a connection. Default: ${DEFAULT-VALUE}.",
            key("timeouts.connect"),
            CONFIG,
            false,
            false,
            c -> c.bounds().timeouts().connect());

    public static final RunOption<Duration> FIRST_TOKEN_TIMEOUT = new RunOption<>(
            "first-token-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            null,
            "Limit from the send to the first generated text. Default: none.",
            key("timeouts.first_token"),
            CONFIG,
            false,
            false,
            c -> c.bounds().timeouts().firstToken());

    public static final RunOption<Duration> IDLE_TIMEOUT = new RunOption<>(
            "idle-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            null,
            "Limit on silence between pieces of a stream once text has started. Default: none.",
            key("timeouts.idle"),
            CONFIG,
            false,
            false,
            c -> c.bounds().timeouts().idle());

    public static final RunOption<Duration> REQUEST_TIMEOUT = new RunOption<>(
            "request-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            "10m",
            "Limit on a whole request. Default: ${DEFAULT-VALUE}.",
            key("timeouts.total"),
            CONFIG,
            false,
            false,
            c -> c.bounds().timeouts().total());

    public static final RunOption<Long> MAX_EVENT_BYTES = new RunOption<>(
            "max-event-bytes",
            List.of(),
            "BYTES",
            Value.LONG,
            String.valueOf(ResponseLimits.DEFAULT_MAX_EVENT_BYTES),
            "A stream event larger than this ends its response as a protocol failure. Default: ${DEFAULT-VALUE} (1 MiB).",
            key("timeouts.limits.max_event_bytes"),
            CONFIG,
            false,
            false,
            c -> c.bounds().timeouts().limits().maxEventBytes());

    public static final RunOption<Long> MAX_RESPONSE_BYTES = new RunOption<>(
            "max-response-bytes",
            List.of(),
            "BYTES",
            Value.LONG,
            String.valueOf(ResponseLimits.DEFAULT_MAX_RESPONSE_BYTES),
            "A response body larger than this is ended as a protocol failure. Default: ${DEFAULT-VALUE} (64 MiB).",
            key("timeouts.limits.max_response_bytes"),
            CONFIG,
            false,
            false,
            c -> c.bounds().timeouts().limits().maxResponseBytes());

    public static final RunOption<Integer> MAX_TOKENS_FACTOR = new RunOption<>(
            "max-tokens-factor",
            List.of(),
            "N",
            Value.INT,
            String.valueOf(ResponseLimits.DEFAULT_TOKEN_FACTOR),
            "A response with more than N x max_tokens + 64 token events is ended as a protocol failure. "
                    + "Default: ${DEFAULT-VALUE}.",
            key("timeouts.limits.token_factor"),
            CONFIG,
            false,
            false,
            c -> c.bounds().timeouts().limits().tokenFactor());

    // Telemetry.

    public static final RunOption<String> SERVER_METRICS = new RunOption<>(
            "server-metrics",
            List.of(),
            "URL|auto|off",
            Value.TEXT,
            "auto",
            "Prometheus metrics of the server, scraped during the run. auto: the "
                    + "target's /metrics when it answers in Prometheus format. Default: ${DEFAULT-VALUE}.",
            key("telemetry.server_metrics"),
            CONFIG,
            false,
            false,
            c -> c.telemetry().serverMetrics().text());

    public static final RunOption<String> SERVER_KIND = new RunOption<>(
            "server-kind",
            List.of(),
            "KIND",
            Value.TEXT,
            null,
            "Read the server's metrics as vllm, sglang, tgi, trtllm, triton or llamacpp. Default: detected.",
            key("telemetry.server_kind"),
            CONFIG,
            false,
            false,
            c -> c.telemetry().serverKindName());

    public static final RunOption<List<String>> GPU_METRICS = new RunOption<>(
            "gpu-metrics",
            List.of(),
            "URL",
            Value.TEXTS,
            null,
            "A DCGM exporter's metrics URL (e.g. http://node:9400/metrics). Repeatable, one per node.",
            key("telemetry.gpu_metrics"),
            CONFIG,
            false,
            false,
            c -> c.telemetry().gpuMetrics().stream().map(Object::toString).toList());

    public static final RunOption<Duration> NVIDIA_SMI = new RunOption<>(
            "nvidia-smi",
            List.of(),
            "INTERVAL",
            Value.optionalTime("1s"),
            null,
            "Poll the local nvidia-smi every INTERVAL (default 1s) for GPU utilisation, memory and power.",
            key("telemetry.nvidia_smi_interval"),
            CONFIG,
            false,
            false,
            c -> c.telemetry().nvidiaSmi());

    public static final RunOption<Duration> SCRAPE_INTERVAL = new RunOption<>(
            "scrape-interval",
            List.of(),
            "TIME",
            Value.TIME,
            "1s",
            "How often metrics are scraped (at least 100ms). Default: ${DEFAULT-VALUE}.",
            key("telemetry.scrape_interval"),
            CONFIG,
            false,
            false,
            c -> c.telemetry().scrapeInterval());

    // The end of a run.

    public static final RunOption<Duration> GRACE = new RunOption<>(
            "grace",
            List.of(),
            "TIME",
            Value.TIME,
            "30s",
            "When a --duration ends or the run is interrupted, requests in flight may finish for this long, "
                    + "then are cancelled (counted as cancelled). Default: ${DEFAULT-VALUE}.",
            key("grace"),
            CONFIG,
            false,
            false,
            c -> c.bounds().grace());

    public static final RunOption<Boolean> STOP_ON_SATURATION = new RunOption<>(
            "stop-on-saturation",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Open loop: stop sending once the server is certainly saturated (its backlog past twice "
                    + "what the saturated note allows), with a note, instead of running the whole schedule.",
            key("stop_on_saturation"),
            CONFIG,
            false,
            false,
            c -> flag(c.bounds().stopOnSaturation()));

    // What a run writes.

    public static final RunOption<String> GPU_HOUR_PRICE = new RunOption<>(
            "gpu-hour-price",
            List.of(),
            "PRICE",
            Value.TEXT,
            null,
            "What one of the server's GPUs costs per hour, with its currency, e.g. 2.49USD: "
                    + "report.json then gives the cost per million output and total tokens (docs/report.md, efficiency).",
            key("gpu_hour_price"),
            CONFIG,
            false,
            false,
            c -> c.output().gpuHourPrice() == null
                    ? null
                    : c.output().gpuHourPrice().text());

    public static final RunOption<List<String>> EXPORT = new RunOption<>(
            "export",
            List.of(),
            "FORMAT",
            Value.TEXTS,
            null,
            "Also write the results in another tool's format: vllm (the file and keys of vllm bench "
                    + "serve --save-result --save-detailed, e.g. openai-chat-infqps-concurrency16-<model>-<date>.json). "
                    + "Repeatable.",
            key("exports"),
            CONFIG,
            false,
            false,
            c -> c.output().exports());

    public static final RunOption<Map<String, String>> METADATA = new RunOption<>(
            "metadata",
            List.of(),
            "KEY=VALUE",
            Value.PAIRS,
            null,
            "Record a fact the tool cannot discover, e.g. hardware.gpu_model=H100, "
                    + "model.precision=bf16, service.launch_args='--max-num-seqs 256'. Repeatable.",
            key("metadata"),
            CONFIG,
            false,
            false,
            // A replayed report.json's metadata travels as the file's own section, not as flags.
            c -> null);

    public static final RunOption<List<String>> NOTE = new RunOption<>(
            "note",
            List.of(),
            "TEXT",
            Value.TEXTS,
            null,
            "A note of your own for the report. Repeatable.",
            key("notes"),
            CONFIG,
            false,
            false,
            // As metadata: the file's own section.
            c -> null);

    // The client.

    public static final RunOption<Path> API_KEY_FILE = new RunOption<>(
            "api-key-file",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "Read the API key from this file (first line) instead of the environment.",
            new Report.NotRecorded("where the key was read from is the user's, the key is never written"),
            CONFIG,
            false,
            false,
            c -> null);

    public static final RunOption<Boolean> INSECURE = new RunOption<>(
            "insecure",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Do not verify the server's TLS certificate.",
            key("insecure"),
            CONFIG,
            false,
            false,
            c -> flag(c.target().insecure()));

    public static final RunOption<Integer> IO_THREADS = new RunOption<>(
            "io-threads",
            List.of(),
            "N",
            Value.INT,
            null,
            "Client event loop threads. Default: the number of CPU cores, at most 4.",
            key("io_threads"),
            CONFIG,
            false,
            false,
            c -> c.client().ioThreads());

    public static final RunOption<String> SEGMENT = new RunOption<>(
            "segment",
            List.of(),
            "I/N",
            Value.TEXT,
            null,
            "Send segment I (0 to N-1) of a run spread over N hosts; auto/N takes I from "
                    + "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job). Merge the segments with llmload merge "
                    + "(docs/distributed.md).",
            key("segment"),
            CONFIG,
            false,
            false,
            c -> c.client().segment());

    public static final RunOption<String> START_AT = new RunOption<>(
            "start-at",
            List.of(),
            "INSTANT",
            Value.TEXT,
            null,
            "Get ready, then start the clock at this wall-clock instant: RFC 3339 "
                    + "(2026-12-01T10:00:00Z), or +DELAY after LLMLOAD_START_BASE, shared by every segment.",
            key("start_at"),
            CONFIG,
            false,
            false,
            // A repeat starts when it is ready: the recorded instant has passed.
            c -> null);

    // Where the defaults come from.

    public static final RunOption<String> SCENARIO = new RunOption<>(
            "scenario",
            List.of(),
            "NAME",
            Value.TEXT,
            null,
            "Defaults for a common question: chat, batch, long-doc, online, capacity or agentic (docs/cli.md). "
                    + "Flags and --config still win.",
            key("scenario"),
            CONFIG,
            false,
            false,
            RunConfig::scenario);

    public static final RunOption<Path> CONFIG_FILE = new RunOption<>(
            "config",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "A YAML scenario file with the same keys as these flags (plus metadata, notes, model, service, "
                    + "hardware), or a run's report.json to repeat that run. Flags override it.",
            new Report.NotRecorded("the file is merged into the options, which are recorded"),
            COMMAND,
            false,
            false,
            c -> null);

    public static final RunOption<Path> SIM_CONFIG = new RunOption<>(
            "sim-config",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "YAML settings of the built-in simulator (only without --url); see docs/simulator.md.",
            new Report.NotRecorded("the simulator's settings, not the run's: the simulator writes its own"),
            COMMAND,
            false,
            false,
            c -> null);

    /** Every row, in the order of the help. */
    public static final List<RunOption<?>> ROWS = List.of(
            CONCURRENCY,
            REQUEST_RATE,
            SLO,
            OUTPUT_DIR,
            URL,
            API,
            BATCH_SIZE,
            IMAGES,
            MODEL,
            NO_STREAM,
            NO_IGNORE_EOS,
            HEADER,
            EXTRA_BODY,
            TEMPERATURE,
            TOP_P,
            TOP_K,
            STOP,
            ARRIVAL,
            RAMP,
            STAGES,
            BURSTS,
            CONCURRENCY_PROFILE,
            BURSTINESS,
            MAX_CONCURRENCY,
            NUM_REQUESTS,
            DURATION,
            WARMUP,
            INPUT_TOKENS,
            OUTPUT_TOKENS,
            RANGE_RATIO,
            DATASET,
            DATASET_FORMAT,
            SHARED_PREFIX,
            TRACE,
            TRACE_SPEED,
            TRACE_FORMAT,
            SESSIONS,
            THINK_TIME,
            MAX_SESSIONS,
            SYSTEM_PROMPT_TOKENS,
            SUBAGENT_PROBABILITY,
            SUBAGENT_FANOUT,
            TOKENIZER,
            SEED,
            CONNECT_TIMEOUT,
            FIRST_TOKEN_TIMEOUT,
            IDLE_TIMEOUT,
            REQUEST_TIMEOUT,
            MAX_EVENT_BYTES,
            MAX_RESPONSE_BYTES,
            MAX_TOKENS_FACTOR,
            SERVER_METRICS,
            SERVER_KIND,
            GPU_METRICS,
            NVIDIA_SMI,
            SCRAPE_INTERVAL,
            GRACE,
            STOP_ON_SATURATION,
            GPU_HOUR_PRICE,
            EXPORT,
            METADATA,
            NOTE,
            API_KEY_FILE,
            INSECURE,
            IO_THREADS,
            SEGMENT,
            START_AT,
            SCENARIO,
            CONFIG_FILE,
            SIM_CONFIG);

    /** The row of a long name or alias without dashes, or null. */
    public static RunOption<?> byName(String name) {
        for (RunOption<?> row : ROWS) {
            if (row.name().equals(name) || row.aliases().contains(name)) {
                return row;
            }
        }
        return null;
    }

    private static Report key(String path) {
        return new Report.Key(path);
    }

    private static String flag(boolean set) {
        return set ? "true" : null;
    }

    private static String profile(RunConfig config, Load.Arrival arrival) {
        return config.load() instanceof Load.Open open && open.arrival() == arrival ? open.profile() : null;
    }
}
