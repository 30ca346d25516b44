package dev.llmload.config;

import static dev.llmload.config.RunOption.Use.COMMAND;
import static dev.llmload.config.RunOption.Use.CONFIG;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.config.ReportLayout.Field;
import dev.llmload.config.RunOption.Report;
import dev.llmload.config.RunOption.Report.Key;
import dev.llmload.config.RunOption.Value;
import dev.llmload.load.ResponseLimits;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.ImageInputs;
import dev.llmload.protocol.RequestExtras;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Every run option, one row each, in the order of {@code llmload run --help}: the one place an
 * option's names, type, default, help, report.json key and recorded value are written. The
 * command line makes its flags from these rows, {@link RunConfig.Builder} keeps values under them
 * and takes their defaults from them, a YAML config file's keys are their names, and report.json's
 * {@code config} section is written from them and read back through them ({@link ReportLayout}),
 * for a report read again and a replayed run alike. Adding an option is a row here plus the
 * component and check in its record (docs/architecture.md).
 */
public final class OptionTable {

    private OptionTable() {}

    // The values several rows are recorded in, one field each (before the rows, which use them).

    private static final Field LOAD = Field.always("load", c -> c.load().recorded());

    private static final Field SESSIONS_OBJECT = Field.always("data.sessions", c -> {
        if (c.sessions() == null) {
            return null;
        }
        Map<String, Object> sessions = new LinkedHashMap<>();
        sessions.put("turns", c.sessions().turns().text());
        sessions.put(
                "think_time_ms",
                c.sessions().thinkTimeMs() == null
                        ? null
                        : c.sessions().thinkTimeMs().text());
        sessions.put("max_sessions", c.sessions().maxSessions());
        Sessions.Agent agent = c.sessions().agent();
        // Written only for agent sessions, so a chat-session run records what earlier versions did.
        if (agent != null) {
            sessions.put("system_prompt_tokens", agent.systemPromptTokens());
            sessions.put("subagent_probability", agent.subagentProbability());
            if (agent.subagentFanout() != null) {
                sessions.put("subagent_fanout", agent.subagentFanout().text());
            }
        }
        return sessions;
    });

    private static final Field LIMITS = Field.whenSet("timeouts.limits", c -> {
        ResponseLimits limits = c.bounds().timeouts().limits();
        return limits.equals(ResponseLimits.defaults()) ? null : limits;
    });

    // The four a sweep spells its own way (lists, percentile limits, a sweep directory): points.

    public static final RunOption<Integer> CONCURRENCY = new RunOption<>(
            "concurrency",
            List.of(),
            "N",
            Value.INT,
            null,
            "Closed loop: keep N requests in flight. Default: 16 when --request-rate is not given.",
            inLoad(
                    "load.concurrency",
                    (l, s) -> l.mode() == Load.Mode.CLOSED && s.node("data.sessions") == null ? l.concurrency() : null),
            CONFIG,
            true,
            true);

    public static final RunOption<Double> REQUEST_RATE = new RunOption<>(
            "request-rate",
            List.of(),
            "R",
            Value.RATE,
            null,
            "Open loop: send R requests (with --sessions: start R sessions) per second on a precomputed "
                    + "schedule, whatever the server does. inf, as in vLLM: every request at once, behind "
                    + "--max-concurrency if given (a closed loop).",
            inLoad("load.request_rate", (l, s) -> l.mode() == Load.Mode.OPEN && !shaped(l) ? l.requestRate() : null),
            CONFIG,
            true,
            true);

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
            always("slo", String.class, c -> c.slo() == null ? null : c.slo().text()),
            CONFIG,
            false,
            true);

    public static final RunOption<Path> OUTPUT_DIR = new RunOption<>(
            "output-dir",
            List.of("result-dir"),
            "DIR",
            Value.PATH,
            null,
            "Run directory. Default: results/<timestamp>-<target>-<load>.",
            // A repeat writes a run directory of its own.
            always("output_dir", Path.class, c -> c.output().dir()).notRepeated(),
            CONFIG,
            false,
            true);

    // The target and what each request asks.

    public static final RunOption<String> URL = new RunOption<>(
            "url",
            List.of("base-url"),
            "URL",
            Value.TEXT,
            null,
            "Server to benchmark, e.g. http://127.0.0.1:8000 (the /v1 prefix is added unless present). "
                    + "Absent: the built-in simulator.",
            always(
                    "url",
                    String.class,
                    c -> c.target().url() == null ? null : c.target().url().text()),
            CONFIG,
            false,
            false);

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
            // Recorded under its enum name (CHAT), as every earlier version wrote it.
            new Key<>(
                    "api",
                    List.of(Field.always("api", c -> c.target().api())),
                    s -> {
                        ApiKind api = s.get("api", ApiKind.class);
                        return api == null ? null : api.cliName();
                    },
                    true),
            CONFIG,
            false,
            false);

    public static final RunOption<Integer> BATCH_SIZE = new RunOption<>(
            "batch-size",
            List.of(),
            "N",
            Value.INT,
            "1",
            "Inputs per request for --api embeddings (texts) and rerank (documents). Default: ${DEFAULT-VALUE}.",
            // Written only when used, so a run without it records what earlier versions did.
            whenSet(
                    "data.batch_size",
                    Integer.class,
                    c -> c.data().batchSize() == 1 ? null : c.data().batchSize()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> IMAGES = new RunOption<>(
            "images",
            List.of(),
            "N:WxH",
            Value.TEXT,
            null,
            "Attach N synthetic PNG images of W x H pixels to every chat request, as data URLs (vision "
                    + "models); made from --seed and the request, so a seeded run sends the same images.",
            new Key<>(
                    "data.images",
                    List.of(Field.whenSet("data.images", c -> c.data().images())),
                    s -> {
                        ImageInputs images = s.get("data.images", ImageInputs.class);
                        return images == null ? null : images.count() + ":" + images.width() + "x" + images.height();
                    },
                    true),
            CONFIG,
            false,
            false);

    public static final RunOption<String> MODEL = new RunOption<>(
            "model",
            List.of(),
            "NAME",
            Value.TEXT,
            null,
            "Model name to send. Default: the first model the server lists on /v1/models.",
            always("model", String.class, c -> c.target().model()),
            CONFIG,
            false,
            false);

    public static final RunOption<Boolean> NO_STREAM = new RunOption<>(
            "no-stream",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Ask for whole (non-streamed) responses; TTFT, ITL and TPOT are then not measured.",
            // Recorded as what was asked of the server, the flag's opposite.
            inverted("stream", c -> c.target().stream()),
            CONFIG,
            false,
            false);

    public static final RunOption<Boolean> NO_IGNORE_EOS = new RunOption<>(
            "no-ignore-eos",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Do not send ignore_eos: the server may stop before --output-tokens.",
            // Recorded as what was asked of the server, the flag's opposite.
            inverted("ignore_eos", c -> c.target().ignoreEos()),
            CONFIG,
            false,
            false);

    public static final RunOption<List<String>> HEADER = new RunOption<>(
            "header",
            List.of(),
            "NAME:VALUE",
            Value.TEXTS,
            null,
            "Send this header with every request, e.g. 'x-route: pool-a' (gateways, routing). Repeatable. "
                    + "Recorded, with the values of credentials (authorization, *key*, *token*, *secret*, cookie) redacted.",
            new Key<>(
                    "headers",
                    // A credential's value is never written: the record names the header only.
                    List.of(Field.whenSet(
                            "headers",
                            c -> c.target().extras().headers().isEmpty()
                                    ? null
                                    : c.target().extras().redactedHeaders())),
                    // A header recorded redacted is not sent again as the redaction mark: a repeat needs it given.
                    s -> {
                        Map<String, String> recorded = s.pairs("headers");
                        List<String> headers = recorded == null
                                ? List.of()
                                : recorded.entrySet().stream()
                                        .filter(h -> !RequestExtras.REDACTED.equals(h.getValue()))
                                        .map(h -> h.getKey() + ":" + h.getValue())
                                        .toList();
                        return headers.isEmpty() ? null : headers;
                    },
                    true),
            CONFIG,
            false,
            false);

    public static final RunOption<String> EXTRA_BODY = new RunOption<>(
            "extra-body",
            List.of(),
            "JSON",
            Value.TEXT,
            null,
            "A JSON object whose fields are put into every request body over llmload's own, e.g. "
                    + "'{\"chat_template_kwargs\": {\"enable_thinking\": false}}'.",
            new Key<>(
                    "extra_body",
                    List.of(Field.whenSet("extra_body", c -> c.target().extras().extraBody())),
                    s -> s.node("extra_body") instanceof ObjectNode body ? body.toString() : null,
                    true),
            CONFIG,
            false,
            false);

    public static final RunOption<Double> TEMPERATURE = new RunOption<>(
            "temperature",
            List.of(),
            "T",
            Value.DOUBLE,
            null,
            "Sampling temperature. Default: the server's.",
            whenSet("temperature", Double.class, c -> c.target().extras().temperature()),
            CONFIG,
            false,
            false);

    public static final RunOption<Double> TOP_P = new RunOption<>(
            "top-p",
            List.of(),
            "P",
            Value.DOUBLE,
            null,
            "Nucleus sampling: top_p. Default: the server's.",
            whenSet("top_p", Double.class, c -> c.target().extras().topP()),
            CONFIG,
            false,
            false);

    public static final RunOption<Integer> TOP_K = new RunOption<>(
            "top-k",
            List.of(),
            "K",
            Value.INT,
            null,
            "top_k sampling. Default: the server's.",
            whenSet("top_k", Integer.class, c -> c.target().extras().topK()),
            CONFIG,
            false,
            false);

    public static final RunOption<List<String>> STOP = new RunOption<>(
            "stop",
            List.of(),
            "TEXT",
            Value.TEXTS,
            null,
            "A stop string. Repeatable. Default: none.",
            texts("stop", false, c -> c.target().extras().stop()),
            CONFIG,
            false,
            false);

    // The load.

    public static final RunOption<String> ARRIVAL = new RunOption<>(
            "arrival",
            List.of(),
            "KIND",
            Value.TEXT,
            null,
            "Open-loop arrivals: poisson, constant or gamma (ramp, stages, bursts and trace are chosen by their own "
                    + "flags). Default: poisson, or gamma when --burstiness is given.",
            inLoad(
                    "load.arrival",
                    (l, s) -> l.mode() == Load.Mode.OPEN && !shaped(l)
                            ? l.arrival().cliName()
                            : null),
            CONFIG,
            true,
            false);

    public static final RunOption<String> RAMP = new RunOption<>(
            "ramp",
            List.of(),
            "FROM:TO:TIME[:exponential]",
            Value.TEXT,
            null,
            "Open loop with a rate moving from FROM to TO req/s over TIME (sets --arrival ramp); "
                    + "add :poisson for random gaps.",
            profile(Load.Arrival.RAMP),
            CONFIG,
            true,
            false);

    public static final RunOption<String> STAGES = new RunOption<>(
            "stages",
            List.of(),
            "RATE:TIME,...",
            Value.TEXT,
            null,
            "Open loop in steady stages, e.g. 5:30s,10:30s,20:30s (sets --arrival stages).",
            profile(Load.Arrival.STAGES),
            CONFIG,
            true,
            false);

    public static final RunOption<String> BURSTS = new RunOption<>(
            "bursts",
            List.of(),
            "BASE:SIZE:PERIOD",
            Value.TEXT,
            null,
            "Open loop: SIZE requests at once every PERIOD on top of a Poisson BASE rate, e.g. 2:20:10s "
                    + "(sets --arrival bursts).",
            profile(Load.Arrival.BURSTS),
            CONFIG,
            true,
            false);

    public static final RunOption<String> CONCURRENCY_PROFILE = new RunOption<>(
            "concurrency-profile",
            List.of(),
            "PROFILE",
            Value.TEXT,
            null,
            "Closed loop whose concurrency changes: ramp:FROM:TO:TIME or steps N:TIME,N:TIME,...",
            inLoad("load.profile", (l, s) -> l.mode() == Load.Mode.CLOSED ? l.profile() : null),
            CONFIG,
            true,
            false);

    public static final RunOption<Double> BURSTINESS = new RunOption<>(
            "burstiness",
            List.of(),
            "K",
            Value.DOUBLE,
            null,
            "Gamma shape K of open-loop arrivals (1 = Poisson, < 1 burstier, > 1 more regular); "
                    + "implies --arrival gamma.",
            // A burstiness recorded beside other arrivals was never used.
            inLoad("load.burstiness", (l, s) -> l.arrival() == Load.Arrival.GAMMA ? l.burstiness() : null),
            CONFIG,
            true,
            false);

    public static final RunOption<Integer> MAX_CONCURRENCY = new RunOption<>(
            "max-concurrency",
            List.of(),
            "N",
            Value.INT,
            null,
            "Open loop: at most N requests in flight; the others wait (shown as client queue time). "
                    + "Without a rate, as in vLLM: a closed loop of N.",
            inLoad("load.max_concurrency", (l, s) -> l.mode() == Load.Mode.OPEN ? l.maxConcurrency() : null),
            CONFIG,
            true,
            false);

    // How long a run lasts.

    public static final RunOption<Long> NUM_REQUESTS = new RunOption<>(
            "num-requests",
            List.of("num-prompts"),
            "N",
            Value.LONG,
            null,
            "Requests to send (with --sessions: turns), warm-up included. Default: 100, or "
                    + "unbounded when --duration or --num-sessions is given.",
            always("num_requests", Long.class, c -> c.bounds().numRequests()),
            CONFIG,
            false,
            false);

    public static final RunOption<Integer> NUM_SESSIONS = new RunOption<>(
            "num-sessions",
            List.of(),
            "N",
            Value.INT,
            null,
            "Sessions to run, with --sessions (or --scenario agentic) or a session --trace: a closed loop starts N "
                    + "sessions and ends when all have ended, an open loop starts its first N arrivals, a trace its "
                    + "first N sessions. Subagents belong to their session and do not count. --num-requests is then "
                    + "unbounded unless given; given too, whichever is reached first ends the run.",
            // Written only when given, so a run without it records what earlier versions did.
            whenSet("num_sessions", Integer.class, c -> c.bounds().numSessions()),
            CONFIG,
            false,
            false);

    public static final RunOption<Duration> DURATION = new RunOption<>(
            "duration",
            List.of(),
            "TIME",
            Value.TIME,
            null,
            "Stop sending after this long (e.g. 30s, 5m). With --num-requests or --num-sessions, the first bound "
                    + "wins.",
            always("duration", Duration.class, c -> c.bounds().duration()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> WARMUP = new RunOption<>(
            "warmup",
            List.of(),
            "N|TIME",
            Value.TEXT,
            "0",
            "Warm-up left out of the statistics but kept in the journal (flagged): the first N requests, "
                    + "or the requests intended to start in the first TIME (e.g. 30s). Default: ${DEFAULT-VALUE}.",
            // A count under warmup, a time under warmup_time (and warmup 0), as earlier versions wrote them.
            new Key<>(
                    "warmup",
                    List.of(
                            Field.always("warmup", c -> c.bounds().warmup()),
                            Field.always("warmup_time", c -> c.bounds().warmupTime())),
                    OptionTable::warmup,
                    true),
            CONFIG,
            false,
            false);

    // The data.

    public static final RunOption<String> INPUT_TOKENS = new RunOption<>(
            "input-tokens",
            List.of("random-input-len"),
            "DIST",
            Value.TEXT,
            "512",
            "Prompt length in tokens (with --sessions: of each new user message): N, "
                    + "uniform:MIN:MAX, normal:MEAN:STD, lognormal:MEAN:STD. Default: ${DEFAULT-VALUE}.",
            always(
                    "data.input_tokens",
                    String.class,
                    c -> c.data().inputTokens().text()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> OUTPUT_TOKENS = new RunOption<>(
            "output-tokens",
            List.of("random-output-len"),
            "DIST",
            Value.TEXT,
            "128",
            "max_tokens per request, as a length distribution. Default: ${DEFAULT-VALUE}.",
            always(
                    "data.output_tokens",
                    String.class,
                    c -> c.data().outputTokens().text()),
            CONFIG,
            false,
            false);

    public static final RunOption<Double> RANGE_RATIO = new RunOption<>(
            "range-ratio",
            List.of("random-range-ratio"),
            "R",
            Value.DOUBLE,
            null,
            "As vLLM's --random-range-ratio: fixed lengths L become uniform on [L(1-R), L(1+R)].",
            always("data.range_ratio", Double.class, c -> c.data().rangeRatio()),
            CONFIG,
            false,
            false);

    public static final RunOption<Path> DATASET = new RunOption<>(
            "dataset",
            List.of("dataset-path"),
            "FILE",
            Value.PATH,
            null,
            "Prompts from a file instead of synthetic ones: JSONL ({\"prompt\":...} or "
                    + "{\"messages\":[...]}, optional \"output_tokens\") or a ShareGPT JSON array.",
            always("data.dataset", Path.class, c -> c.data().dataset()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> DATASET_FORMAT = new RunOption<>(
            "dataset-format",
            List.of(),
            "FORMAT",
            Value.TEXT,
            null,
            "jsonl or sharegpt. Default: told from the file (a JSON array is ShareGPT).",
            always("data.dataset_format", String.class, c -> c.data().datasetFormat()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> SHARED_PREFIX = new RunOption<>(
            "shared-prefix",
            List.of(),
            "N:TOKENS[:zipf:S]",
            Value.TEXT,
            null,
            "Synthetic prompts start with one of N shared prefixes of TOKENS "
                    + "tokens, spread uniformly or by Zipf, to measure prefix caching.",
            always("data.shared_prefix", String.class, c -> c.data().sharedPrefix()),
            CONFIG,
            false,
            false);

    public static final RunOption<Path> TRACE = new RunOption<>(
            "trace",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "Replay a JSONL or CSV trace (timestamp ms, input_length, output_length, optional hash_ids) "
                    + "at its own timestamps (sets --arrival trace).",
            always("data.trace", Path.class, c -> c.load() instanceof Load.Trace trace ? trace.file() : null),
            CONFIG,
            true,
            false);

    public static final RunOption<Double> TRACE_SPEED = new RunOption<>(
            "trace-speed",
            List.of(),
            "X",
            Value.DOUBLE,
            "1",
            "Replay the trace X times faster. Default: ${DEFAULT-VALUE}.",
            // Written as 1.0 for a run without a trace, as earlier versions did.
            new Key<>(
                    "data.trace_speed",
                    List.of(Field.always(
                            "data.trace_speed", c -> c.load() instanceof Load.Trace trace ? trace.speed() : 1.0)),
                    s -> s.node("data.trace") == null ? null : s.get("data.trace_speed", Double.class),
                    true),
            CONFIG,
            false,
            false);

    public static final RunOption<String> TRACE_FORMAT = new RunOption<>(
            "trace-format",
            List.of(),
            "NAME",
            Value.TEXT,
            null,
            "The --trace file's format: mooncake (independent requests), llmload-sessions (sessions of turns "
                    + "with delays, tool waits and subagents), aiperf-mooncake (AIPerf's mooncake_trace records, "
                    + "grouped by session_id) or aiperf-multi-turn (AIPerf's multi_turn sessions); "
                    + "docs/workloads.md. Default: told by the first entry (mooncake or llmload-sessions).",
            whenSet(
                    "data.trace_format",
                    String.class,
                    c -> c.load() instanceof Load.Trace trace ? trace.format() : null),
            CONFIG,
            false,
            false);

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
            inSessions("data.sessions.turns", String.class),
            CONFIG,
            true,
            false);

    public static final RunOption<String> THINK_TIME = new RunOption<>(
            "think-time",
            List.of(),
            "DIST_MS",
            Value.TEXT,
            null,
            "With --sessions: pause in ms between an answer's end and the next turn, a length distribution "
                    + "(e.g. 2000 or uniform:1000:5000). Default: none.",
            inSessions("data.sessions.think_time_ms", String.class),
            CONFIG,
            false,
            false);

    public static final RunOption<Integer> SYSTEM_PROMPT_TOKENS = new RunOption<>(
            "system-prompt-tokens",
            List.of(),
            "N",
            Value.INT,
            null,
            "With --sessions: every session starts with the same system prompt of N tokens (an agent's "
                    + "instructions and tool schemas), a prefix all sessions share. Default: none.",
            inSessions("data.sessions.system_prompt_tokens", Integer.class),
            CONFIG,
            false,
            false);

    public static final RunOption<Double> SUBAGENT_PROBABILITY = new RunOption<>(
            "subagent-probability",
            List.of(),
            "P",
            Value.DOUBLE,
            null,
            "With --sessions: the chance that a turn before a session's last forks subagents; each starts "
                    + "from the session's context with its own turns, and the session's next turn waits for them "
                    + "all. Default: 0.",
            inSessions("data.sessions.subagent_probability", Double.class),
            CONFIG,
            false,
            false);

    public static final RunOption<String> SUBAGENT_FANOUT = new RunOption<>(
            "subagent-fanout",
            List.of(),
            "DIST",
            Value.TEXT,
            null,
            "With --subagent-probability: subagents per fork, a length distribution (e.g. 2 or uniform:1:3). "
                    + "Default: 1.",
            inSessions("data.sessions.subagent_fanout", String.class),
            CONFIG,
            false,
            false);

    public static final RunOption<Integer> MAX_SESSIONS = new RunOption<>(
            "max-sessions",
            List.of(),
            "N",
            Value.INT,
            null,
            "With --sessions: at most N sessions in flight. Closed loop: N sessions are kept in flight "
                    + "(default 16). Open loop: a session due while N are running waits (client queue time); default: "
                    + "no limit.",
            inSessions("data.sessions.max_sessions", Integer.class),
            CONFIG,
            true,
            false);

    public static final RunOption<String> TOKENIZER = new RunOption<>(
            "tokenizer",
            List.of(),
            "NAME",
            Value.TEXT,
            Tokenizers.DEFAULT,
            "Tokenizer for synthetic prompts and local counts: cl100k_base, o200k_base, "
                    + "p50k_base, r50k_base, or a path to a HuggingFace tokenizer.json. Default: ${DEFAULT-VALUE}.",
            always("data.tokenizer", String.class, c -> c.data().tokenizer()),
            CONFIG,
            false,
            false);

    public static final RunOption<Long> SEED = new RunOption<>(
            "seed",
            List.of(),
            "N",
            Value.LONG,
            "0",
            "Seeds prompts, lengths and arrival times; the same seed repeats the same run. Default: ${DEFAULT-VALUE}.",
            always("seed", Long.class, RunConfig::seed),
            CONFIG,
            false,
            false);

    // Limits on each request.

    public static final RunOption<Duration> CONNECT_TIMEOUT = new RunOption<>(
            "connect-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            "10s",
            "Limit on opening a connection. Default: ${DEFAULT-VALUE}.",
            always(
                    "timeouts.connect",
                    Duration.class,
                    c -> c.bounds().timeouts().connect()),
            CONFIG,
            false,
            false);

    public static final RunOption<Duration> FIRST_TOKEN_TIMEOUT = new RunOption<>(
            "first-token-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            null,
            "Limit from the send to the first generated text. Default: none.",
            always(
                    "timeouts.first_token",
                    Duration.class,
                    c -> c.bounds().timeouts().firstToken()),
            CONFIG,
            false,
            false);

    public static final RunOption<Duration> IDLE_TIMEOUT = new RunOption<>(
            "idle-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            null,
            "Limit on silence between pieces of a stream once text has started. Default: none.",
            always("timeouts.idle", Duration.class, c -> c.bounds().timeouts().idle()),
            CONFIG,
            false,
            false);

    public static final RunOption<Duration> REQUEST_TIMEOUT = new RunOption<>(
            "request-timeout",
            List.of(),
            "TIME",
            Value.TIME,
            "10m",
            "Limit on a whole request. Default: ${DEFAULT-VALUE}.",
            always("timeouts.total", Duration.class, c -> c.bounds().timeouts().total()),
            CONFIG,
            false,
            false);

    public static final RunOption<Long> MAX_EVENT_BYTES = new RunOption<>(
            "max-event-bytes",
            List.of(),
            "BYTES",
            Value.LONG,
            String.valueOf(ResponseLimits.DEFAULT_MAX_EVENT_BYTES),
            "A stream event larger than this ends its response as a protocol failure. Default: ${DEFAULT-VALUE} (1 MiB).",
            inLimits("timeouts.limits.max_event_bytes", Long.class),
            CONFIG,
            false,
            false);

    public static final RunOption<Long> MAX_RESPONSE_BYTES = new RunOption<>(
            "max-response-bytes",
            List.of(),
            "BYTES",
            Value.LONG,
            String.valueOf(ResponseLimits.DEFAULT_MAX_RESPONSE_BYTES),
            "A response body larger than this is ended as a protocol failure. Default: ${DEFAULT-VALUE} (64 MiB).",
            inLimits("timeouts.limits.max_response_bytes", Long.class),
            CONFIG,
            false,
            false);

    public static final RunOption<Integer> MAX_TOKENS_FACTOR = new RunOption<>(
            "max-tokens-factor",
            List.of(),
            "N",
            Value.INT,
            String.valueOf(ResponseLimits.DEFAULT_TOKEN_FACTOR),
            "A response with more than N x max_tokens + 64 token events is ended as a protocol failure. "
                    + "Default: ${DEFAULT-VALUE}.",
            inLimits("timeouts.limits.token_factor", Integer.class),
            CONFIG,
            false,
            false);

    // Telemetry.

    public static final RunOption<String> SERVER_METRICS = new RunOption<>(
            "server-metrics",
            List.of(),
            "URL|auto|off",
            Value.TEXT,
            "auto",
            "Prometheus metrics of the server, scraped during the run. auto: the "
                    + "target's /metrics when it answers in Prometheus format. Default: ${DEFAULT-VALUE}.",
            always(
                    "telemetry.server_metrics",
                    String.class,
                    c -> c.telemetry().serverMetrics().text()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> SERVER_KIND = new RunOption<>(
            "server-kind",
            List.of(),
            "KIND",
            Value.TEXT,
            null,
            "Read the server's metrics as vllm, sglang, tgi, trtllm, triton or llamacpp. Default: detected.",
            always("telemetry.server_kind", String.class, c -> c.telemetry().serverKindName()),
            CONFIG,
            false,
            false);

    public static final RunOption<List<String>> GPU_METRICS = new RunOption<>(
            "gpu-metrics",
            List.of(),
            "URL",
            Value.TEXTS,
            null,
            "A DCGM exporter's metrics URL (e.g. http://node:9400/metrics). Repeatable, one per node.",
            texts(
                    "telemetry.gpu_metrics",
                    true,
                    c -> c.telemetry().gpuMetrics().stream()
                            .map(Object::toString)
                            .toList()),
            CONFIG,
            false,
            false);

    public static final RunOption<Duration> NVIDIA_SMI = new RunOption<>(
            "nvidia-smi",
            List.of(),
            "INTERVAL",
            Value.optionalTime("1s"),
            null,
            "Poll the local nvidia-smi every INTERVAL (default 1s) for GPU utilisation, memory and power.",
            // Recorded as nvidia_smi (the tool polled, or null) and its interval (1s when not polled).
            new Key<>(
                    "telemetry.nvidia_smi_interval",
                    List.of(
                            Field.always(
                                    "telemetry.nvidia_smi",
                                    c -> c.telemetry().nvidiaSmi() == null ? null : "nvidia-smi"),
                            Field.always(
                                    "telemetry.nvidia_smi_interval",
                                    c -> c.telemetry().nvidiaSmi() == null
                                            ? Duration.ofSeconds(1)
                                            : c.telemetry().nvidiaSmi())),
                    s -> s.node("telemetry.nvidia_smi") == null
                            ? null
                            : s.get("telemetry.nvidia_smi_interval", Duration.class),
                    true),
            CONFIG,
            false,
            false);

    public static final RunOption<Duration> SCRAPE_INTERVAL = new RunOption<>(
            "scrape-interval",
            List.of(),
            "TIME",
            Value.TIME,
            "1s",
            "How often metrics are scraped (at least 100ms). Default: ${DEFAULT-VALUE}.",
            always(
                    "telemetry.scrape_interval",
                    Duration.class,
                    c -> c.telemetry().scrapeInterval()),
            CONFIG,
            false,
            false);

    // The end of a run.

    public static final RunOption<Duration> GRACE = new RunOption<>(
            "grace",
            List.of(),
            "TIME",
            Value.TIME,
            "30s",
            "When a --duration ends or the run is interrupted, requests in flight may finish for this long, "
                    + "then are cancelled (counted as cancelled). Default: ${DEFAULT-VALUE}.",
            always("grace", Duration.class, c -> c.bounds().grace()),
            CONFIG,
            false,
            false);

    public static final RunOption<Boolean> STOP_ON_SATURATION = new RunOption<>(
            "stop-on-saturation",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Open loop: stop sending once the server is certainly saturated (its backlog past twice "
                    + "what the saturated note allows), with a note, instead of running the whole schedule.",
            // Written only when on, so the layout of every earlier report stays as it was.
            whenSet("stop_on_saturation", Boolean.class, c -> c.bounds().stopOnSaturation() ? Boolean.TRUE : null),
            CONFIG,
            false,
            false);

    // What a run writes.

    public static final RunOption<String> GPU_HOUR_PRICE = new RunOption<>(
            "gpu-hour-price",
            List.of(),
            "PRICE",
            Value.TEXT,
            null,
            "What one of the server's GPUs costs per hour, with its currency, e.g. 2.49USD: "
                    + "report.json then gives the cost per million output and total tokens (docs/report.md, efficiency).",
            whenSet(
                    "gpu_hour_price",
                    String.class,
                    c -> c.output().gpuHourPrice() == null
                            ? null
                            : c.output().gpuHourPrice().text()),
            CONFIG,
            false,
            false);

    public static final RunOption<List<String>> EXPORT = new RunOption<>(
            "export",
            List.of(),
            "FORMAT",
            Value.TEXTS,
            null,
            "Also write the results in another tool's format: vllm (the file and keys of vllm bench "
                    + "serve --save-result --save-detailed, e.g. openai-chat-infqps-concurrency16-<model>-<date>.json). "
                    + "Repeatable.",
            texts("exports", true, c -> c.output().exports()),
            CONFIG,
            false,
            false);

    public static final RunOption<Map<String, String>> METADATA = new RunOption<>(
            "metadata",
            List.of(),
            "KEY=VALUE",
            Value.PAIRS,
            null,
            "Record a fact the tool cannot discover, e.g. hardware.gpu_model=H100, "
                    + "model.precision=bf16, service.launch_args='--max-num-seqs 256'. Repeatable.",
            new Key<>(
                    "metadata",
                    List.of(Field.always("metadata", c -> c.output().metadata())),
                    s -> s.pairs("metadata"),
                    true),
            CONFIG,
            false,
            false);

    public static final RunOption<List<String>> NOTE = new RunOption<>(
            "note",
            List.of(),
            "TEXT",
            Value.TEXTS,
            null,
            "A note of your own for the report. Repeatable.",
            texts("notes", true, c -> c.output().notes()),
            CONFIG,
            false,
            false);

    // The client.

    public static final RunOption<Path> API_KEY_FILE = new RunOption<>(
            "api-key-file",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "Read the API key from this file (first line) instead of the environment.",
            new Report.NotRecorded<>("where the key was read from is the user's, the key is never written"),
            CONFIG,
            false,
            false);

    public static final RunOption<Boolean> INSECURE = new RunOption<>(
            "insecure",
            List.of(),
            null,
            Value.FLAG,
            null,
            "Do not verify the server's TLS certificate.",
            always("insecure", Boolean.class, c -> c.target().insecure()),
            CONFIG,
            false,
            false);

    public static final RunOption<Integer> IO_THREADS = new RunOption<>(
            "io-threads",
            List.of(),
            "N",
            Value.INT,
            null,
            "Client event loop threads. Default: the number of CPU cores, at most 4.",
            always("io_threads", Integer.class, c -> c.client().ioThreads()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> SEGMENT = new RunOption<>(
            "segment",
            List.of(),
            "I/N",
            Value.TEXT,
            null,
            "Send segment I (0 to N-1) of a run spread over N hosts; auto/N takes I from "
                    + "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job). Merge the segments with llmload merge "
                    + "(docs/distributed.md).",
            whenSet(
                    "segment",
                    String.class,
                    c -> c.client().segment() == null
                            ? null
                            : c.client().segment().toString()),
            CONFIG,
            false,
            false);

    public static final RunOption<String> START_AT = new RunOption<>(
            "start-at",
            List.of(),
            "INSTANT",
            Value.TEXT,
            null,
            "Get ready, then start the clock at this wall-clock instant: RFC 3339 "
                    + "(2026-12-01T10:00:00Z), or +DELAY after LLMLOAD_START_BASE, shared by every segment.",
            // Recorded as written and as resolved (start_instant, which a report read again keeps); a repeat starts
            // when it is ready: the recorded instant has passed.
            new Key<>(
                            "start_at",
                            List.of(
                                    Field.whenSet("start_at", c -> c.client().startAt()),
                                    Field.whenSet(
                                            "start_instant", c -> c.client().startInstant())),
                            s -> s.get("start_at", String.class),
                            true)
                    .notRepeated(),
            CONFIG,
            false,
            false);

    // Watching the run.

    public static final RunOption<Boolean> NO_LIVE = new RunOption<>(
            "no-live",
            List.of(),
            null,
            Value.FLAG,
            null,
            "No live view: on a terminal, the progress line instead of the view redrawn every second "
                    + "(docs/live.md). Off the terminal there is no view anyway.",
            new Report.NotRecorded<>("how the run is watched, not what it measures"),
            COMMAND,
            false,
            false);

    public static final RunOption<String> LIVE_METRICS = new RunOption<>(
            "live-metrics",
            List.of(),
            "HOST:PORT",
            Value.TEXT,
            null,
            "Serve the run's live counters and histograms at http://HOST:PORT/metrics in Prometheus's text "
                    + "format while it runs; a bare PORT listens on 127.0.0.1 (docs/live.md).",
            new Report.NotRecorded<>("how the run is watched, not what it measures"),
            COMMAND,
            false,
            false);

    // Where the defaults come from.

    public static final RunOption<String> SCENARIO = new RunOption<>(
            "scenario",
            List.of(),
            "NAME",
            Value.TEXT,
            null,
            "Defaults for a common question: chat, batch, long-doc, online, capacity or agentic (docs/cli.md). "
                    + "Flags and --config still win.",
            always("scenario", String.class, RunConfig::scenario),
            CONFIG,
            false,
            false);

    public static final RunOption<Path> CONFIG_FILE = new RunOption<>(
            "config",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "A YAML scenario file with the same keys as these flags (plus metadata, notes, model, service, "
                    + "hardware), or a run's report.json to repeat that run. Flags override it.",
            new Report.NotRecorded<>("the file is merged into the options, which are recorded"),
            COMMAND,
            false,
            false);

    public static final RunOption<Path> SIM_CONFIG = new RunOption<>(
            "sim-config",
            List.of(),
            "FILE",
            Value.PATH,
            null,
            "YAML settings of the built-in simulator (only without --url); see docs/simulator.md.",
            new Report.NotRecorded<>("the simulator's settings, not the run's: the simulator writes its own"),
            COMMAND,
            false,
            false);

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
            NUM_SESSIONS,
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
            NO_LIVE,
            LIVE_METRICS,
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

    // How rows are recorded. A row recorded in one key of its own type: always or whenSet; in a
    // value several rows share: inLoad, inSessions, inLimits; otherwise its own Key.

    /** Recorded at {@code path} in every report (null when unset), read back as written. */
    private static <T> Key<T> always(String path, Class<T> type, Function<RunConfig, T> value) {
        return new Key<>(path, List.of(Field.always(path, value)), s -> s.get(path, type), true);
    }

    /** Recorded at {@code path} only when set (a key earlier versions did not write), read back as written. */
    private static <T> Key<T> whenSet(String path, Class<T> type, Function<RunConfig, T> value) {
        return new Key<>(path, List.of(Field.whenSet(path, value)), s -> s.get(path, type), true);
    }

    /** A repeatable option's list at {@code path}; when not {@code always}, written only when not empty. */
    private static Key<List<String>> texts(String path, boolean always, Function<RunConfig, List<String>> value) {
        Field field = always
                ? Field.always(path, value)
                : Field.whenSet(path, c -> value.apply(c).isEmpty() ? null : value.apply(c));
        return new Key<>(path, List.of(field), s -> s.texts(path), true);
    }

    /** A flag recorded as its opposite ({@code --no-stream} as {@code stream}), in every report. */
    private static Key<Boolean> inverted(String path, Function<RunConfig, Boolean> value) {
        return new Key<>(
                path,
                List.of(Field.always(path, value)),
                s -> s.get(path, Boolean.class) == null ? null : !s.get(path, Boolean.class),
                true);
    }

    /** {@code --warmup} as recorded: a time under {@code warmup_time}, else a count under {@code warmup}. */
    private static String warmup(ReportLayout.Section s) {
        Duration time = s.get("warmup_time", Duration.class);
        Integer count = s.get("warmup", Integer.class);
        return time != null ? time.toString() : count == null ? null : count.toString();
    }

    /** Recorded in the {@code load} object, which is the load's one projection, {@link Load#recorded()}. */
    private static <T> Key<T> inLoad(String path, BiFunction<Load.Recorded, ReportLayout.Section, T> read) {
        return new Key<>(
                path,
                List.of(LOAD),
                s -> {
                    Load.Recorded load = s.get("load", Load.Recorded.class);
                    return load == null ? null : read.apply(load, s);
                },
                true);
    }

    /** An open loop's shape, recorded as the load's {@code profile}. */
    private static Key<String> profile(Load.Arrival shape) {
        return inLoad(
                "load.profile", (l, s) -> l.mode() == Load.Mode.OPEN && l.arrival() == shape ? l.profile() : null);
    }

    /** Whether arrivals set their own rates (a ramp, stages, bursts) or follow a trace: no rate or kind of their own. */
    private static boolean shaped(Load.Recorded load) {
        return load.arrival() == null || load.arrival().shaped() || load.arrival() == Load.Arrival.TRACE;
    }

    /** Recorded in the {@code data.sessions} object, null without sessions. */
    private static <T> Key<T> inSessions(String path, Class<T> type) {
        return new Key<>(path, List.of(SESSIONS_OBJECT), s -> s.get(path, type), true);
    }

    /** Recorded in {@code timeouts.limits}, which is written only when a limit is not its default. */
    private static <T> Key<T> inLimits(String path, Class<T> type) {
        return new Key<>(path, List.of(LIMITS), s -> s.get(path, type), true);
    }
}
