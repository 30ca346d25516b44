package dev.llmload.config;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.llmload.load.ResponseLimits;
import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.RequestExtras;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Everything that determines a run, checked: each part refuses a bad value with a one-line
 * {@link ConfigException} when it is made, so a command line and a Java caller get the same
 * errors. It is written into the report ({@code config}, made from {@link OptionTable}'s rows by
 * {@link ReportLayout}) so the run can be repeated with {@code llmload run --config report.json}. It never holds
 * the API key. Build one with {@link #builder()}, whose setters take values as the command line's
 * options do.
 *
 * @param sessions multi-turn sessions; null for independent requests
 * @param slo      per-request limits for goodput; null for none
 * @param seed     seeds prompts, lengths and arrival times
 * @param scenario the preset the defaults came from, or null
 */
@JsonSerialize(using = ReportLayout.Writer.class)
@JsonDeserialize(using = ReportLayout.Reader.class)
public record RunConfig(
        Target target,
        Load load,
        Data data,
        Sessions sessions,
        Bounds bounds,
        Client client,
        Telemetry telemetry,
        Output output,
        SloLimits slo,
        long seed,
        String scenario) {

    /** Requests of a run that names neither a count nor a duration. */
    public static final long DEFAULT_NUM_REQUESTS = 100;

    public RunConfig {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(output, "output");
        if (data.dataset() != null && load instanceof Load.Trace) {
            throw new ConfigException("give --dataset or --trace, not both");
        }
        if (sessions != null && (data.dataset() != null || load instanceof Load.Trace || data.sharedPrefix() != null)) {
            throw new ConfigException("--sessions makes synthetic conversations; it cannot be combined with --dataset, "
                    + "--trace or --shared-prefix");
        }
        // A trace told to be Mooncake's holds independent requests; one whose format its file tells is checked when
        // read.
        boolean sessionTrace = load instanceof Load.Trace trace && !"mooncake".equals(trace.format());
        if (bounds.numSessions() != null && sessions == null && !sessionTrace) {
            throw new ConfigException("--num-sessions counts sessions: it applies with --sessions (or --scenario "
                    + "agentic) or a session --trace");
        }
        boolean selfBounded =
                load instanceof Load.Trace || (load instanceof Load.Open open && open.arrival() == Load.Arrival.STAGES);
        if (load.isOpen()
                && !selfBounded
                && bounds.numRequests() == null
                && bounds.numSessions() == null
                && bounds.duration() == null) {
            throw new ConfigException("an open-loop run needs --num-requests or --duration");
        }
        if (client.segment() != null && target.url() == null) {
            throw new ConfigException("--segment needs --url: the segments of one run must load one server, not an "
                    + "embedded simulator each");
        }
    }

    public RunConfig withOutputDir(Path dir) {
        return new RunConfig(
                target, load, data, sessions, bounds, client, telemetry, output.withDir(dir), slo, seed, scenario);
    }

    /** The same run with {@code --num-requests n}, warm-up and every other bound kept. */
    public RunConfig withNumRequests(long n) {
        return new RunConfig(
                target,
                load,
                data,
                sessions,
                new Bounds(
                        n,
                        bounds.numSessions(),
                        bounds.duration(),
                        bounds.warmup(),
                        bounds.warmupTime(),
                        bounds.timeouts(),
                        bounds.grace(),
                        bounds.stopOnSaturation()),
                client,
                telemetry,
                output,
                slo,
                seed,
                scenario);
    }

    /** The same run with {@code --stop-on-saturation} on or off. */
    public RunConfig withStopOnSaturation(boolean stop) {
        return new RunConfig(
                target,
                load,
                data,
                sessions,
                new Bounds(
                        bounds.numRequests(),
                        bounds.numSessions(),
                        bounds.duration(),
                        bounds.warmup(),
                        bounds.warmupTime(),
                        bounds.timeouts(),
                        bounds.grace(),
                        stop),
                client,
                telemetry,
                output,
                slo,
                seed,
                scenario);
    }

    public RunConfig withClient(Client newClient) {
        return new RunConfig(target, load, data, sessions, bounds, newClient, telemetry, output, slo, seed, scenario);
    }

    public RunConfig withLoad(Load newLoad) {
        return new RunConfig(target, newLoad, data, sessions, bounds, client, telemetry, output, slo, seed, scenario);
    }

    /**
     * The bound on sessions in flight of an open-loop session run: requests held back by it waited
     * for a slot and did not lag their schedule. Null for every other run.
     */
    public Integer sessionGate() {
        return sessions == null || !load.isOpen() ? null : sessions.maxSessions();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A run described as the command line's options describe it; {@link #build} applies the
     * defaults and the checks that span options (which flags choose the load, what sessions
     * allow) and reads every value once. Not thread-safe.
     */
    public static final class Builder {
        /** The value under each row that was set; a row not here has its default. */
        private final Map<RunOption<?>, Object> values = new LinkedHashMap<>();

        private Load load;

        private Builder() {}

        /** Sets a row's value as its type reads it; null is no value (not the default), as a flag left out. */
        public <T> Builder set(RunOption<T> option, T value) {
            values.put(
                    option,
                    value instanceof List<?> list
                            ? List.copyOf(list)
                            : value instanceof Map<?, ?> map ? new LinkedHashMap<>(map) : value);
            return this;
        }

        /** A row's value: as set, else the row's default. */
        @SuppressWarnings("unchecked")
        public <T> T get(RunOption<T> option) {
            return values.containsKey(option) ? (T) values.get(option) : option.defaultValue();
        }

        // The setters a Java caller writes; each sets its row of OptionTable, where the default is.

        /** null: the embedded simulator (the command line starts one). */
        public Builder url(String value) {
            return set(OptionTable.URL, value);
        }

        public Builder api(String value) {
            return set(OptionTable.API, value);
        }

        public Builder model(String value) {
            return set(OptionTable.MODEL, value);
        }

        public Builder stream(boolean value) {
            return set(OptionTable.NO_STREAM, !value);
        }

        public Builder ignoreEos(boolean value) {
            return set(OptionTable.NO_IGNORE_EOS, !value);
        }

        public Builder insecure(boolean value) {
            return set(OptionTable.INSECURE, value);
        }
        /** Read the API key from this file's first line; null: from the environment. */
        public Builder apiKeyFile(Path value) {
            return set(OptionTable.API_KEY_FILE, value);
        }
        /** The load as a value; the load options below are then not read. */
        public Builder load(Load value) {
            load = value;
            return this;
        }
        /** {@code NAME:VALUE} each, sent with every request. */
        public Builder headers(List<String> value) {
            return set(OptionTable.HEADER, value);
        }
        /** A JSON object merged into every request body; null for none. */
        public Builder extraBody(String value) {
            return set(OptionTable.EXTRA_BODY, value);
        }

        public Builder temperature(Double value) {
            return set(OptionTable.TEMPERATURE, value);
        }

        public Builder topP(Double value) {
            return set(OptionTable.TOP_P, value);
        }

        public Builder topK(Integer value) {
            return set(OptionTable.TOP_K, value);
        }

        public Builder stop(List<String> value) {
            return set(OptionTable.STOP, value);
        }

        public Builder concurrency(Integer value) {
            return set(OptionTable.CONCURRENCY, value);
        }

        public Builder requestRate(Double value) {
            return set(OptionTable.REQUEST_RATE, value);
        }
        /** {@code poisson}, {@code constant} or {@code gamma}; null is Poisson, or gamma with a burstiness. */
        public Builder arrival(String value) {
            return set(OptionTable.ARRIVAL, value);
        }

        public Builder ramp(String value) {
            return set(OptionTable.RAMP, value);
        }

        public Builder stages(String value) {
            return set(OptionTable.STAGES, value);
        }

        public Builder bursts(String value) {
            return set(OptionTable.BURSTS, value);
        }

        public Builder concurrencyProfile(String value) {
            return set(OptionTable.CONCURRENCY_PROFILE, value);
        }

        public Builder burstiness(Double value) {
            return set(OptionTable.BURSTINESS, value);
        }

        public Builder maxConcurrency(Integer value) {
            return set(OptionTable.MAX_CONCURRENCY, value);
        }

        public Builder trace(Path value) {
            return set(OptionTable.TRACE, value);
        }

        public Builder traceSpeed(double value) {
            return set(OptionTable.TRACE_SPEED, value);
        }

        public Builder traceFormat(String value) {
            return set(OptionTable.TRACE_FORMAT, value);
        }

        public Builder numRequests(Long value) {
            return set(OptionTable.NUM_REQUESTS, value);
        }

        public Builder numSessions(Integer value) {
            return set(OptionTable.NUM_SESSIONS, value);
        }

        public Builder duration(Duration value) {
            return set(OptionTable.DURATION, value);
        }
        /** A request count ({@code 10}) or a time ({@code 30s}). */
        public Builder warmup(String value) {
            return set(OptionTable.WARMUP, value);
        }

        public Builder inputTokens(String value) {
            return set(OptionTable.INPUT_TOKENS, value);
        }

        public Builder outputTokens(String value) {
            return set(OptionTable.OUTPUT_TOKENS, value);
        }

        public Builder rangeRatio(Double value) {
            return set(OptionTable.RANGE_RATIO, value);
        }

        public Builder dataset(Path value) {
            return set(OptionTable.DATASET, value);
        }

        public Builder datasetFormat(String value) {
            return set(OptionTable.DATASET_FORMAT, value);
        }

        public Builder sharedPrefix(String value) {
            return set(OptionTable.SHARED_PREFIX, value);
        }

        public Builder tokenizer(String value) {
            return set(OptionTable.TOKENIZER, value);
        }
        /** Inputs per request of embeddings and rerank. */
        public Builder batchSize(int value) {
            return set(OptionTable.BATCH_SIZE, value);
        }
        /** {@code N:WxH} synthetic images in every chat request; null for none. */
        public Builder images(String value) {
            return set(OptionTable.IMAGES, value);
        }

        public Builder sessions(String value) {
            return set(OptionTable.SESSIONS, value);
        }

        public Builder thinkTime(String value) {
            return set(OptionTable.THINK_TIME, value);
        }

        public Builder maxSessions(Integer value) {
            return set(OptionTable.MAX_SESSIONS, value);
        }

        public Builder systemPromptTokens(Integer value) {
            return set(OptionTable.SYSTEM_PROMPT_TOKENS, value);
        }

        public Builder subagentProbability(Double value) {
            return set(OptionTable.SUBAGENT_PROBABILITY, value);
        }

        public Builder subagentFanout(String value) {
            return set(OptionTable.SUBAGENT_FANOUT, value);
        }

        public Builder seed(long value) {
            return set(OptionTable.SEED, value);
        }

        public Builder connectTimeout(Duration value) {
            return set(OptionTable.CONNECT_TIMEOUT, value);
        }

        public Builder firstTokenTimeout(Duration value) {
            return set(OptionTable.FIRST_TOKEN_TIMEOUT, value);
        }

        public Builder idleTimeout(Duration value) {
            return set(OptionTable.IDLE_TIMEOUT, value);
        }

        public Builder requestTimeout(Duration value) {
            return set(OptionTable.REQUEST_TIMEOUT, value);
        }

        public Builder maxEventBytes(long value) {
            return set(OptionTable.MAX_EVENT_BYTES, value);
        }

        public Builder maxResponseBytes(long value) {
            return set(OptionTable.MAX_RESPONSE_BYTES, value);
        }

        public Builder maxTokensFactor(int value) {
            return set(OptionTable.MAX_TOKENS_FACTOR, value);
        }

        public Builder timeouts(Timeouts value) {
            return connectTimeout(value.connect())
                    .firstTokenTimeout(value.firstToken())
                    .idleTimeout(value.idle())
                    .requestTimeout(value.total())
                    .maxEventBytes(value.limits().maxEventBytes())
                    .maxResponseBytes(value.limits().maxResponseBytes())
                    .maxTokensFactor(value.limits().tokenFactor());
        }

        public Builder grace(Duration value) {
            return set(OptionTable.GRACE, value);
        }

        public Builder stopOnSaturation(boolean value) {
            return set(OptionTable.STOP_ON_SATURATION, value);
        }

        public Builder serverMetrics(String value) {
            return set(OptionTable.SERVER_METRICS, value);
        }

        public Builder serverKind(String value) {
            return set(OptionTable.SERVER_KIND, value);
        }

        public Builder gpuMetrics(List<String> value) {
            return set(OptionTable.GPU_METRICS, value);
        }
        /** Poll the local nvidia-smi this often; null not to. */
        public Builder nvidiaSmi(Duration value) {
            return set(OptionTable.NVIDIA_SMI, value);
        }

        public Builder scrapeInterval(Duration value) {
            return set(OptionTable.SCRAPE_INTERVAL, value);
        }

        public Builder slo(String value) {
            return set(OptionTable.SLO, value);
        }

        public Builder exports(List<String> value) {
            return set(OptionTable.EXPORT, value);
        }
        /** {@code AMOUNT CURRENCY} per GPU and hour, e.g. {@code 2.49USD}; null for no cost figures. */
        public Builder gpuHourPrice(String value) {
            return set(OptionTable.GPU_HOUR_PRICE, value);
        }

        public Builder outputDir(Path value) {
            return set(OptionTable.OUTPUT_DIR, value);
        }

        public Builder metadata(Map<String, String> value) {
            return set(OptionTable.METADATA, value);
        }

        public Builder notes(List<String> value) {
            return set(OptionTable.NOTE, value);
        }
        /** null: the number of CPU cores, at most 4. */
        public Builder ioThreads(Integer value) {
            return set(OptionTable.IO_THREADS, value);
        }
        /** {@code I/N} or {@code auto/N}; null for the whole run. */
        public Builder segment(String value) {
            return set(OptionTable.SEGMENT, value);
        }
        /** An RFC 3339 instant or {@code +DELAY}; null to start when ready. */
        public Builder startAt(String value) {
            return set(OptionTable.START_AT, value);
        }

        public Builder scenario(String value) {
            return set(OptionTable.SCENARIO, value);
        }

        /** @throws ConfigException with a one-line reason when the options do not make a run */
        public RunConfig build() {
            return build(false, null);
        }

        /**
         * The configuration a report recorded: its files are not looked for (the run that read them
         * is over), its segment is as recorded, and its start is the instant recorded, not one read
         * from the environment again.
         *
         * @param startInstant the recorded resolution of {@code --start-at}; null without one
         */
        RunConfig buildRecorded(Instant startInstant) {
            return build(true, startInstant);
        }

        private RunConfig build(boolean recorded, Instant startInstant) {
            String url = get(OptionTable.URL);
            String api = get(OptionTable.API);
            String model = get(OptionTable.MODEL);
            boolean insecure = get(OptionTable.INSECURE);
            Path apiKeyFile = get(OptionTable.API_KEY_FILE);
            List<String> headers = get(OptionTable.HEADER);
            String extraBody = get(OptionTable.EXTRA_BODY);
            Double temperature = get(OptionTable.TEMPERATURE);
            Double topP = get(OptionTable.TOP_P);
            Integer topK = get(OptionTable.TOP_K);
            List<String> stop = get(OptionTable.STOP);
            Path trace = get(OptionTable.TRACE);
            Long numRequests = get(OptionTable.NUM_REQUESTS);
            Integer numSessions = get(OptionTable.NUM_SESSIONS);
            Duration duration = get(OptionTable.DURATION);
            String warmup = get(OptionTable.WARMUP);
            String inputTokens = get(OptionTable.INPUT_TOKENS);
            String outputTokens = get(OptionTable.OUTPUT_TOKENS);
            Double rangeRatio = get(OptionTable.RANGE_RATIO);
            Path dataset = get(OptionTable.DATASET);
            String datasetFormat = get(OptionTable.DATASET_FORMAT);
            String sharedPrefix = get(OptionTable.SHARED_PREFIX);
            String tokenizer = get(OptionTable.TOKENIZER);
            int batchSize = get(OptionTable.BATCH_SIZE);
            String images = get(OptionTable.IMAGES);
            long seed = get(OptionTable.SEED);
            Duration connectTimeout = get(OptionTable.CONNECT_TIMEOUT);
            Duration firstTokenTimeout = get(OptionTable.FIRST_TOKEN_TIMEOUT);
            Duration idleTimeout = get(OptionTable.IDLE_TIMEOUT);
            Duration requestTimeout = get(OptionTable.REQUEST_TIMEOUT);
            Duration grace = get(OptionTable.GRACE);
            boolean stopOnSaturation = get(OptionTable.STOP_ON_SATURATION);
            String serverMetrics = get(OptionTable.SERVER_METRICS);
            String serverKind = get(OptionTable.SERVER_KIND);
            List<String> gpuMetrics = get(OptionTable.GPU_METRICS);
            Duration nvidiaSmi = get(OptionTable.NVIDIA_SMI);
            Duration scrapeInterval = get(OptionTable.SCRAPE_INTERVAL);
            String slo = get(OptionTable.SLO);
            List<String> exports = get(OptionTable.EXPORT);
            String gpuHourPrice = get(OptionTable.GPU_HOUR_PRICE);
            Path outputDir = get(OptionTable.OUTPUT_DIR);
            Map<String, String> metadata = get(OptionTable.METADATA);
            List<String> notes = get(OptionTable.NOTE);
            Integer ioThreads = get(OptionTable.IO_THREADS);
            String segment = get(OptionTable.SEGMENT);
            String startAt = get(OptionTable.START_AT);
            String scenario = get(OptionTable.SCENARIO);
            boolean stream = !get(OptionTable.NO_STREAM);
            boolean ignoreEos = !get(OptionTable.NO_IGNORE_EOS);
            Load chosen = load != null ? load : load();
            // A count of sessions bounds the run as a duration does: no default request count cuts its sessions.
            Long requests = numRequests != null
                    ? numRequests
                    : duration == null && numSessions == null && !(chosen instanceof Load.Trace)
                            ? Long.valueOf(DEFAULT_NUM_REQUESTS)
                            : null;
            if (requests != null && requests < 1) {
                throw new ConfigException("--num-requests must be at least 1, got " + requests);
            }
            int warmupRequests = 0;
            Duration warmupTime = null;
            if (warmup.matches("\\d+")) {
                warmupRequests = Integer.parseInt(warmup);
            } else {
                try {
                    warmupTime = Durations.parse(warmup);
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("--warmup: expected a request count or a time, " + e.getMessage());
                }
            }
            RequestExtras extras;
            try {
                extras = RequestExtras.parse(headers, extraBody, temperature, topP, topK, stop);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage());
            }
            Target target = new Target(
                    Target.ServerUrl.parse(url),
                    ConfigException.parsing("--api", () -> ApiKind.parse(api)),
                    model,
                    stream,
                    ignoreEos,
                    insecure,
                    apiKeyFile == null ? new Target.KeySource.Environment() : new Target.KeySource.File(apiKeyFile),
                    extras);
            for (Path file : new Path[] {dataset, trace}) {
                if (!recorded && file != null && !Files.isReadable(file)) {
                    throw new ConfigException("cannot read " + file);
                }
            }
            if (dataset != null && trace != null) {
                throw new ConfigException("give --dataset or --trace, not both");
            }
            int threads = ioThreads != null ? ioThreads : Client.defaults().ioThreads();
            Client client = recorded
                    ? Client.of(threads, segment, null, Map.of()).withStart(startAt, startInstant)
                    : Client.of(threads, segment, startAt, System.getenv());
            Telemetry telemetry = Telemetry.of(serverMetrics, serverKind, gpuMetrics, nvidiaSmi, scrapeInterval);
            Output output = new Output(outputDir, exports, metadata, notes, GpuPrice.parse(gpuHourPrice));
            SloLimits limits = SloLimits.parse(slo);
            Sessions turns = sessions(chosen);
            Data data = Data.of(
                    inputTokens,
                    outputTokens,
                    rangeRatio,
                    dataset,
                    datasetFormat,
                    sharedPrefix,
                    tokenizer,
                    batchSize,
                    images);
            if (data.batchSize() > 1 && !target.api().neverStreams()) {
                throw new ConfigException("--batch-size needs --api embeddings or rerank");
            }
            if (data.images() != null && target.api() != ApiKind.CHAT && target.api() != ApiKind.AUTO) {
                throw new ConfigException("--images needs --api chat");
            }
            Bounds bounds = new Bounds(
                    requests,
                    numSessions,
                    duration,
                    warmupRequests,
                    warmupTime,
                    new Timeouts(connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout, responseLimits()),
                    grace,
                    stopOnSaturation);
            return new RunConfig(
                    target, chosen, data, turns, bounds, client, telemetry, output, limits, seed, scenario);
        }

        private ResponseLimits responseLimits() {
            long maxEventBytes = get(OptionTable.MAX_EVENT_BYTES);
            long maxResponseBytes = get(OptionTable.MAX_RESPONSE_BYTES);
            int maxTokensFactor = get(OptionTable.MAX_TOKENS_FACTOR);
            if (maxEventBytes <= 0 || maxResponseBytes <= 0 || maxTokensFactor <= 0) {
                throw new ConfigException(
                        "--max-event-bytes, --max-response-bytes and --max-tokens-factor must be positive");
            }
            return new ResponseLimits(
                    maxEventBytes, maxResponseBytes, maxTokensFactor, ResponseLimits.DEFAULT_TOKEN_SLACK);
        }

        private Load load() {
            Integer concurrency = get(OptionTable.CONCURRENCY);
            Double requestRate = get(OptionTable.REQUEST_RATE);
            String arrival = get(OptionTable.ARRIVAL);
            String ramp = get(OptionTable.RAMP);
            String stages = get(OptionTable.STAGES);
            String bursts = get(OptionTable.BURSTS);
            String concurrencyProfile = get(OptionTable.CONCURRENCY_PROFILE);
            Double burstiness = get(OptionTable.BURSTINESS);
            Integer maxConcurrency = get(OptionTable.MAX_CONCURRENCY);
            Path trace = get(OptionTable.TRACE);
            double traceSpeed = get(OptionTable.TRACE_SPEED);
            String traceFormat = get(OptionTable.TRACE_FORMAT);
            String sessions = get(OptionTable.SESSIONS);
            Integer maxSessions = get(OptionTable.MAX_SESSIONS);
            Load.Arrival shaped = ramp != null
                    ? Load.Arrival.RAMP
                    : stages != null ? Load.Arrival.STAGES : bursts != null ? Load.Arrival.BURSTS : null;
            if (Stream.of(ramp, stages, bursts, trace).filter(Objects::nonNull).count() > 1) {
                throw new ConfigException("give only one of --ramp, --stages, --bursts and --trace");
            }
            if (requestRate != null && requestRate == Double.POSITIVE_INFINITY) {
                return everyRequestAtOnce(shaped != null || trace != null);
            }
            boolean open = requestRate != null || shaped != null || trace != null;
            if (sessions != null) {
                if (concurrency != null || concurrencyProfile != null || maxConcurrency != null) {
                    throw new ConfigException("with --sessions, --max-sessions bounds the sessions in flight; "
                            + "--concurrency, --concurrency-profile and --max-concurrency do not apply");
                }
                if (maxSessions != null && maxSessions < 1) {
                    throw new ConfigException("--max-sessions must be at least 1, got " + maxSessions);
                }
                if (!open) {
                    return Load.closed(maxSessions == null ? 16 : maxSessions);
                }
            }
            if (open && (concurrency != null || concurrencyProfile != null)) {
                throw new ConfigException(
                        "give either --concurrency (closed loop) or --request-rate / an arrival shape "
                                + "(open loop), not both");
            }
            if (!open) {
                if (maxConcurrency != null && (concurrency != null || concurrencyProfile != null)) {
                    throw new ConfigException("give --concurrency or --max-concurrency, not both: without a rate "
                            + "both mean a closed loop");
                }
                if (burstiness != null) {
                    throw new ConfigException("--burstiness applies to open-loop runs (with --request-rate)");
                }
                // Without a rate, vLLM's --max-concurrency N releases every request at once behind a gate of
                // N: N in flight, the next as one ends, which is a closed loop of N.
                int inFlight = concurrency != null ? concurrency : maxConcurrency != null ? maxConcurrency : 16;
                return Load.Closed.of(inFlight, concurrencyProfile);
            }
            String shapeName = trace != null ? "trace" : shaped != null ? shaped.cliName() : null;
            if (shapeName != null
                    && arrival != null
                    && !arrival.equalsIgnoreCase("poisson")
                    && !arrival.equalsIgnoreCase(shapeName)) {
                throw new ConfigException("--arrival " + arrival + " contradicts --" + shapeName);
            }
            if (trace != null || "trace".equalsIgnoreCase(arrival)) {
                if (burstiness != null) {
                    throw new ConfigException("--burstiness applies to gamma arrivals, not --trace");
                }
                return new Load.Trace(trace, traceSpeed, maxConcurrency, traceFormat);
            }
            Load.Arrival kind = shaped != null ? shaped : arrival == null ? null : Load.Arrival.parse(arrival);
            String profile = ramp != null ? ramp : stages != null ? stages : bursts;
            return Load.Open.of(requestRate, kind, burstiness, maxConcurrency, profile);
        }

        /**
         * An infinite rate, as vLLM's {@code --request-rate inf}: every request is due at once, and
         * at most {@code --max-concurrency} run, the next as one ends: a closed loop of that many,
         * else of every request of the run.
         */
        private Load everyRequestAtOnce(boolean shaped) {
            Integer concurrency = get(OptionTable.CONCURRENCY);
            String arrival = get(OptionTable.ARRIVAL);
            String concurrencyProfile = get(OptionTable.CONCURRENCY_PROFILE);
            Double burstiness = get(OptionTable.BURSTINESS);
            Integer maxConcurrency = get(OptionTable.MAX_CONCURRENCY);
            Long numRequests = get(OptionTable.NUM_REQUESTS);
            Duration duration = get(OptionTable.DURATION);
            String sessions = get(OptionTable.SESSIONS);
            if (shaped || sessions != null || concurrency != null || concurrencyProfile != null || burstiness != null) {
                throw new ConfigException("--request-rate inf sends every request at once; it takes --max-concurrency "
                        + "but no arrival shape, --sessions, --concurrency or --burstiness");
            }
            if (maxConcurrency != null) {
                return Load.Closed.of(maxConcurrency);
            }
            long all = numRequests != null ? numRequests : duration == null ? DEFAULT_NUM_REQUESTS : -1;
            if (all < 1 || all > Integer.MAX_VALUE) {
                throw new ConfigException(
                        "--request-rate inf needs --max-concurrency, or --num-requests to send at once");
            }
            return Load.Closed.of((int) all);
        }

        /** The sessions of a {@code --sessions} run; null without {@code --sessions}. */
        private Sessions sessions(Load chosen) {
            Path trace = get(OptionTable.TRACE);
            Path dataset = get(OptionTable.DATASET);
            String sharedPrefix = get(OptionTable.SHARED_PREFIX);
            String sessions = get(OptionTable.SESSIONS);
            String thinkTime = get(OptionTable.THINK_TIME);
            Integer maxSessions = get(OptionTable.MAX_SESSIONS);
            Integer systemPromptTokens = get(OptionTable.SYSTEM_PROMPT_TOKENS);
            Double subagentProbability = get(OptionTable.SUBAGENT_PROBABILITY);
            String subagentFanout = get(OptionTable.SUBAGENT_FANOUT);
            boolean agent = systemPromptTokens != null || subagentProbability != null || subagentFanout != null;
            if (sessions == null) {
                if (thinkTime != null || maxSessions != null || agent) {
                    throw new ConfigException("--think-time, --max-sessions, --system-prompt-tokens and the subagent "
                            + "options apply only with --sessions");
                }
                return null;
            }
            if (dataset != null || trace != null || sharedPrefix != null) {
                throw new ConfigException("--sessions makes synthetic conversations; it cannot be combined with "
                        + "--dataset, --trace or --shared-prefix");
            }
            return new Sessions(
                    Lengths.parse("--sessions", sessions),
                    Lengths.parse("--think-time", thinkTime),
                    chosen instanceof Load.Closed closed ? Integer.valueOf(closed.concurrency()) : maxSessions,
                    agent ? agent(systemPromptTokens, subagentProbability, subagentFanout) : null);
        }

        static Sessions.Agent agent(Integer systemPromptTokens, Double probability, String fanout) {
            if (fanout != null && (probability == null || probability == 0)) {
                throw new ConfigException("--subagent-fanout needs a --subagent-probability above 0");
            }
            double p = probability == null ? 0 : probability;
            return new Sessions.Agent(
                    systemPromptTokens == null ? 0 : systemPromptTokens,
                    p,
                    p == 0 ? null : Lengths.parse("--subagent-fanout", fanout == null ? "1" : fanout));
        }
    }
}
