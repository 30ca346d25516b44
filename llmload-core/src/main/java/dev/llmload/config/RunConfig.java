package dev.llmload.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.util.StdConverter;
import dev.llmload.load.ResponseLimits;
import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import dev.llmload.segment.Segment;
import dev.llmload.protocol.ImageInputs;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Everything that determines a run, checked: each part refuses a bad value with a one-line
 * {@link ConfigException} when it is made, so a command line and a Java caller get the same
 * errors. It is written into the report ({@code config}, in the layout {@link ReportLayout}
 * keeps) so the run can be repeated with {@code llmload run --config report.json}. It never holds
 * the API key. Build one with {@link #builder()}, whose setters take values as the command line's
 * options do.
 *
 * @param sessions multi-turn sessions; null for independent requests
 * @param slo      per-request limits for goodput; null for none
 * @param seed     seeds prompts, lengths and arrival times
 * @param scenario the preset the defaults came from, or null
 */
@JsonSerialize(converter = RunConfig.ReportLayout.ToWire.class)
@JsonDeserialize(converter = RunConfig.ReportLayout.FromWire.class)
public record RunConfig(Target target, Load load, Data data, Sessions sessions, Bounds bounds, Client client,
                        Telemetry telemetry, Output output, SloLimits slo, long seed, String scenario) {

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
        boolean selfBounded = load instanceof Load.Trace
                || (load instanceof Load.Open open && open.arrival() == Load.Arrival.STAGES);
        if (load.isOpen() && !selfBounded && bounds.numRequests() == null && bounds.duration() == null) {
            throw new ConfigException("an open-loop run needs --num-requests or --duration");
        }
        if (client.segment() != null && target.url() == null) {
            throw new ConfigException("--segment needs --url: the segments of one run must load one server, not an "
                    + "embedded simulator each");
        }
    }

    public RunConfig withOutputDir(Path dir) {
        return new RunConfig(target, load, data, sessions, bounds, client, telemetry, output.withDir(dir), slo, seed,
                scenario);
    }

    /** The same run with {@code --num-requests n}, warm-up and every other bound kept. */
    public RunConfig withNumRequests(long n) {
        return new RunConfig(target, load, data, sessions, new Bounds(n, bounds.duration(), bounds.warmup(),
                bounds.warmupTime(), bounds.timeouts(), bounds.grace(), bounds.stopOnSaturation()), client, telemetry,
                output, slo, seed, scenario);
    }

    /** The same run with {@code --stop-on-saturation} on or off. */
    public RunConfig withStopOnSaturation(boolean stop) {
        return new RunConfig(target, load, data, sessions, new Bounds(bounds.numRequests(), bounds.duration(),
                bounds.warmup(), bounds.warmupTime(), bounds.timeouts(), bounds.grace(), stop), client, telemetry, output,
                slo, seed, scenario);
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
        private String url;
        private String api = "auto";
        private String model;
        private boolean stream = true;
        private boolean ignoreEos = true;
        private boolean insecure;
        private Path apiKeyFile;
        private Load load;
        private Integer concurrency;
        private Double requestRate;
        private String arrival;
        private String ramp;
        private String stages;
        private String bursts;
        private String concurrencyProfile;
        private Double burstiness;
        private Integer maxConcurrency;
        private Path trace;
        private double traceSpeed = 1;
        private Long numRequests;
        private Duration duration;
        private String warmup = "0";
        private String inputTokens = "512";
        private String outputTokens = "128";
        private Double rangeRatio;
        private Path dataset;
        private String datasetFormat;
        private String sharedPrefix;
        private String tokenizer = Tokenizers.DEFAULT;
        private int batchSize = 1;
        private String images;
        private String sessions;
        private String thinkTime;
        private Integer maxSessions;
        private long seed;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration firstTokenTimeout;
        private Duration idleTimeout;
        private Duration requestTimeout = Duration.ofMinutes(10);
        private long maxEventBytes = ResponseLimits.DEFAULT_MAX_EVENT_BYTES;
        private long maxResponseBytes = ResponseLimits.DEFAULT_MAX_RESPONSE_BYTES;
        private int maxTokensFactor = ResponseLimits.DEFAULT_TOKEN_FACTOR;
        private Duration grace = Duration.ofSeconds(30);
        private boolean stopOnSaturation;
        private String serverMetrics = "auto";
        private String serverKind;
        private List<String> gpuMetrics = List.of();
        private Duration nvidiaSmi;
        private Duration scrapeInterval = Duration.ofSeconds(1);
        private String slo;
        private List<String> exports = List.of();
        private String gpuHourPrice;
        private Path outputDir;
        private Map<String, String> metadata = Map.of();
        private List<String> notes = List.of();
        private Integer ioThreads;
        private String segment;
        private String startAt;
        private String scenario;

        private Builder() {}

        /** null: the embedded simulator (the command line starts one). */
        public Builder url(String value) { url = value; return this; }
        public Builder api(String value) { api = value; return this; }
        public Builder model(String value) { model = value; return this; }
        public Builder stream(boolean value) { stream = value; return this; }
        public Builder ignoreEos(boolean value) { ignoreEos = value; return this; }
        public Builder insecure(boolean value) { insecure = value; return this; }
        /** Read the API key from this file's first line; null: from the environment. */
        public Builder apiKeyFile(Path value) { apiKeyFile = value; return this; }
        /** The load as a value; the load options below are then not read. */
        public Builder load(Load value) { load = value; return this; }
        public Builder concurrency(Integer value) { concurrency = value; return this; }
        public Builder requestRate(Double value) { requestRate = value; return this; }
        /** {@code poisson}, {@code constant} or {@code gamma}; null is Poisson, or gamma with a burstiness. */
        public Builder arrival(String value) { arrival = value; return this; }
        public Builder ramp(String value) { ramp = value; return this; }
        public Builder stages(String value) { stages = value; return this; }
        public Builder bursts(String value) { bursts = value; return this; }
        public Builder concurrencyProfile(String value) { concurrencyProfile = value; return this; }
        public Builder burstiness(Double value) { burstiness = value; return this; }
        public Builder maxConcurrency(Integer value) { maxConcurrency = value; return this; }
        public Builder trace(Path value) { trace = value; return this; }
        public Builder traceSpeed(double value) { traceSpeed = value; return this; }
        public Builder numRequests(Long value) { numRequests = value; return this; }
        public Builder duration(Duration value) { duration = value; return this; }
        /** A request count ({@code 10}) or a time ({@code 30s}). */
        public Builder warmup(String value) { warmup = value; return this; }
        public Builder inputTokens(String value) { inputTokens = value; return this; }
        public Builder outputTokens(String value) { outputTokens = value; return this; }
        public Builder rangeRatio(Double value) { rangeRatio = value; return this; }
        public Builder dataset(Path value) { dataset = value; return this; }
        public Builder datasetFormat(String value) { datasetFormat = value; return this; }
        public Builder sharedPrefix(String value) { sharedPrefix = value; return this; }
        public Builder tokenizer(String value) { tokenizer = value; return this; }
        /** Inputs per request of embeddings and rerank. */
        public Builder batchSize(int value) { batchSize = value; return this; }
        /** {@code N:WxH} synthetic images in every chat request; null for none. */
        public Builder images(String value) { images = value; return this; }
        public Builder sessions(String value) { sessions = value; return this; }
        public Builder thinkTime(String value) { thinkTime = value; return this; }
        public Builder maxSessions(Integer value) { maxSessions = value; return this; }
        public Builder seed(long value) { seed = value; return this; }
        public Builder connectTimeout(Duration value) { connectTimeout = value; return this; }
        public Builder firstTokenTimeout(Duration value) { firstTokenTimeout = value; return this; }
        public Builder idleTimeout(Duration value) { idleTimeout = value; return this; }
        public Builder requestTimeout(Duration value) { requestTimeout = value; return this; }
        public Builder maxEventBytes(long value) { maxEventBytes = value; return this; }
        public Builder maxResponseBytes(long value) { maxResponseBytes = value; return this; }
        public Builder maxTokensFactor(int value) { maxTokensFactor = value; return this; }
        public Builder timeouts(Timeouts value) {
            connectTimeout = value.connect();
            firstTokenTimeout = value.firstToken();
            idleTimeout = value.idle();
            requestTimeout = value.total();
            maxEventBytes = value.limits().maxEventBytes();
            maxResponseBytes = value.limits().maxResponseBytes();
            maxTokensFactor = value.limits().tokenFactor();
            return this;
        }
        public Builder grace(Duration value) { grace = value; return this; }
        public Builder stopOnSaturation(boolean value) { stopOnSaturation = value; return this; }
        public Builder serverMetrics(String value) { serverMetrics = value; return this; }
        public Builder serverKind(String value) { serverKind = value; return this; }
        public Builder gpuMetrics(List<String> value) { gpuMetrics = List.copyOf(value); return this; }
        /** Poll the local nvidia-smi this often; null not to. */
        public Builder nvidiaSmi(Duration value) { nvidiaSmi = value; return this; }
        public Builder scrapeInterval(Duration value) { scrapeInterval = value; return this; }
        public Builder slo(String value) { slo = value; return this; }
        public Builder exports(List<String> value) { exports = List.copyOf(value); return this; }
        /** {@code AMOUNT CURRENCY} per GPU and hour, e.g. {@code 2.49USD}; null for no cost figures. */
        public Builder gpuHourPrice(String value) { gpuHourPrice = value; return this; }
        public Builder outputDir(Path value) { outputDir = value; return this; }
        public Builder metadata(Map<String, String> value) { metadata = new LinkedHashMap<>(value); return this; }
        public Builder notes(List<String> value) { notes = new ArrayList<>(value); return this; }
        /** null: the number of CPU cores, at most 4. */
        public Builder ioThreads(Integer value) { ioThreads = value; return this; }
        /** {@code I/N} or {@code auto/N}; null for the whole run. */
        public Builder segment(String value) { segment = value; return this; }
        /** An RFC 3339 instant or {@code +DELAY}; null to start when ready. */
        public Builder startAt(String value) { startAt = value; return this; }
        public Builder scenario(String value) { scenario = value; return this; }

        /** @throws ConfigException with a one-line reason when the options do not make a run */
        public RunConfig build() {
            Load chosen = load != null ? load : load();
            Long requests = numRequests != null ? numRequests
                    : duration == null && !(chosen instanceof Load.Trace) ? Long.valueOf(100) : null;
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
            Target target = new Target(Target.ServerUrl.parse(url),
                    ConfigException.parsing("--api", () -> ApiKind.parse(api)), model, stream, ignoreEos, insecure,
                    apiKeyFile == null ? new Target.KeySource.Environment() : new Target.KeySource.File(apiKeyFile));
            for (Path file : new Path[] {dataset, trace}) {
                if (file != null && !Files.isReadable(file)) {
                    throw new ConfigException("cannot read " + file);
                }
            }
            if (dataset != null && trace != null) {
                throw new ConfigException("give --dataset or --trace, not both");
            }
            Client client = Client.of(ioThreads != null ? ioThreads : Client.defaults().ioThreads(), segment, startAt,
                    System.getenv());
            Telemetry telemetry = new Telemetry(serverMetrics, serverKind, gpuMetrics, nvidiaSmi, scrapeInterval);
            Output output = new Output(outputDir, exports, metadata, notes, GpuPrice.parse(gpuHourPrice));
            SloLimits limits = SloLimits.parse(slo);
            Sessions turns = sessions(chosen);
            Data data = Data.of(inputTokens, outputTokens, rangeRatio, dataset, datasetFormat, sharedPrefix, tokenizer,
                    batchSize, images);
            if (data.batchSize() > 1 && !target.api().neverStreams()) {
                throw new ConfigException("--batch-size needs --api embeddings or rerank");
            }
            if (data.images() != null && target.api() != ApiKind.CHAT && target.api() != ApiKind.AUTO) {
                throw new ConfigException("--images needs --api chat");
            }
            Bounds bounds = new Bounds(requests, duration, warmupRequests, warmupTime,
                    new Timeouts(connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout, responseLimits()), grace,
                    stopOnSaturation);
            return new RunConfig(target, chosen, data, turns, bounds, client, telemetry, output, limits, seed, scenario);
        }

        private ResponseLimits responseLimits() {
            if (maxEventBytes <= 0 || maxResponseBytes <= 0 || maxTokensFactor <= 0) {
                throw new ConfigException("--max-event-bytes, --max-response-bytes and --max-tokens-factor must be positive");
            }
            return new ResponseLimits(maxEventBytes, maxResponseBytes, maxTokensFactor, ResponseLimits.DEFAULT_TOKEN_SLACK);
        }

        private Load load() {
            Load.Arrival shaped = ramp != null ? Load.Arrival.RAMP : stages != null ? Load.Arrival.STAGES
                    : bursts != null ? Load.Arrival.BURSTS : null;
            if (Stream.of(ramp, stages, bursts, trace).filter(Objects::nonNull).count() > 1) {
                throw new ConfigException("give only one of --ramp, --stages, --bursts and --trace");
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
                throw new ConfigException("give either --concurrency (closed loop) or --request-rate / an arrival shape "
                        + "(open loop), not both");
            }
            if (!open) {
                if (maxConcurrency != null) {
                    throw new ConfigException("--max-concurrency applies to open-loop runs; use --concurrency for a "
                            + "closed loop");
                }
                if (burstiness != null) {
                    throw new ConfigException("--burstiness applies to open-loop runs (with --request-rate)");
                }
                return Load.Closed.of(concurrency == null ? 16 : concurrency, concurrencyProfile);
            }
            String shapeName = trace != null ? "trace" : shaped != null ? shaped.cliName() : null;
            if (shapeName != null && arrival != null && !arrival.equalsIgnoreCase("poisson")
                    && !arrival.equalsIgnoreCase(shapeName)) {
                throw new ConfigException("--arrival " + arrival + " contradicts --" + shapeName);
            }
            if (trace != null || "trace".equalsIgnoreCase(arrival)) {
                if (burstiness != null) {
                    throw new ConfigException("--burstiness applies to gamma arrivals, not --trace");
                }
                return new Load.Trace(trace, traceSpeed, maxConcurrency);
            }
            Load.Arrival kind = shaped != null ? shaped : arrival == null ? null : Load.Arrival.parse(arrival);
            String profile = ramp != null ? ramp : stages != null ? stages : bursts;
            return Load.Open.of(requestRate, kind, burstiness, maxConcurrency, profile);
        }

        /** The sessions of a {@code --sessions} run; null without {@code --sessions}. */
        private Sessions sessions(Load chosen) {
            if (sessions == null) {
                if (thinkTime != null || maxSessions != null) {
                    throw new ConfigException("--think-time and --max-sessions apply only with --sessions");
                }
                return null;
            }
            if (dataset != null || trace != null || sharedPrefix != null) {
                throw new ConfigException("--sessions makes synthetic conversations; it cannot be combined with "
                        + "--dataset, --trace or --shared-prefix");
            }
            return new Sessions(Lengths.parse("--sessions", sessions), Lengths.parse("--think-time", thinkTime),
                    chosen instanceof Load.Closed closed ? Integer.valueOf(closed.concurrency()) : maxSessions);
        }
    }

    /**
     * The layout of a {@link RunConfig} in report.json's {@code config} section: the same keys,
     * order and values as every earlier llmload wrote, so old reports still read and
     * {@code --config report.json} repeats them. Reading goes through the records' constructors, so a
     * report's configuration is checked as a command line is; a parameter an old report recorded but
     * its run never used (a burstiness without gamma arrivals, a rate beside a trace) is dropped.
     */
    static final class ReportLayout {

        private ReportLayout() {}

        /** The {@code config} section. */
        record Wire(String url, ApiKind api, String model, boolean stream, boolean ignoreEos, WireLoad load,
                    Long numRequests, Duration duration, int warmup, Duration warmupTime, WireData data, long seed,
                    Timeouts timeouts, WireTelemetry telemetry, Duration grace, Path outputDir,
                    Map<String, String> metadata, List<String> notes, boolean insecure, int ioThreads, String scenario,
                    String slo, List<String> exports,
                    @JsonInclude(JsonInclude.Include.NON_NULL) String segment,
                    @JsonInclude(JsonInclude.Include.NON_NULL) String startAt,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Instant startInstant,
                    @JsonInclude(JsonInclude.Include.NON_NULL) String gpuHourPrice,
                    // Written only when on, so the layout of every earlier report stays as it was.
                    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean stopOnSaturation) {}

        /** @param mode {@code closed} or {@code open} (a trace is an open loop of arrival {@code trace}) */
        record WireLoad(String mode, Integer concurrency, Double requestRate, String arrival, Double burstiness,
                        Integer maxConcurrency, String profile) {}

        record WireData(String inputTokens, String outputTokens, Double rangeRatio, Path dataset, String datasetFormat,
                        String sharedPrefix, Path trace, Double traceSpeed, String tokenizer, WireSessions sessions,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Integer batchSize,
                        @JsonInclude(JsonInclude.Include.NON_NULL) ImageInputs images) {}

        record WireSessions(String turns, String thinkTimeMs, Integer maxSessions) {}

        /** @param nvidiaSmi {@code nvidia-smi} when it is polled, else null */
        record WireTelemetry(String serverMetrics, String serverKind, List<String> gpuMetrics, String nvidiaSmi,
                             Duration nvidiaSmiInterval, Duration scrapeInterval) {}

        private static final Duration DEFAULT_SMI_INTERVAL = Duration.ofSeconds(1);

        static final class ToWire extends StdConverter<RunConfig, Wire> {
            @Override
            public Wire convert(RunConfig c) {
                Target t = c.target();
                WireLoad load = switch (c.load()) {
                    case Load.Closed closed -> new WireLoad("closed", closed.concurrency(), null, null, null, null,
                            closed.profile());
                    case Load.Open open -> new WireLoad("open", null, open.requestRate(), open.arrival().cliName(),
                            open.burstiness(), open.maxConcurrency(), open.profile());
                    case Load.Trace trace -> new WireLoad("open", null, null, "trace", null, trace.maxConcurrency(), null);
                };
                Data d = c.data();
                Sessions s = c.sessions();
                Path trace = c.load() instanceof Load.Trace replay ? replay.file() : null;
                double speed = c.load() instanceof Load.Trace replay ? replay.speed() : 1.0;
                WireData data = new WireData(d.inputTokens().text(), d.outputTokens().text(), d.rangeRatio(), d.dataset(),
                        d.datasetFormat(), d.sharedPrefix(), trace, speed, d.tokenizer(),
                        s == null ? null : new WireSessions(s.turns().text(),
                                s.thinkTimeMs() == null ? null : s.thinkTimeMs().text(), s.maxSessions()),
                        // Written only when used, so a run without them records what earlier versions did.
                        d.batchSize() == 1 ? null : d.batchSize(), d.images());
                Telemetry m = c.telemetry();
                WireTelemetry telemetry = new WireTelemetry(m.serverMetrics(), m.serverKind(), m.gpuMetrics(),
                        m.nvidiaSmi() == null ? null : "nvidia-smi",
                        m.nvidiaSmi() == null ? DEFAULT_SMI_INTERVAL : m.nvidiaSmi(), m.scrapeInterval());
                Bounds b = c.bounds();
                Output o = c.output();
                return new Wire(t.url() == null ? null : t.url().text(), t.api(), t.model(), t.stream(), t.ignoreEos(),
                        load, b.numRequests(), b.duration(), b.warmup(), b.warmupTime(), data, c.seed(), b.timeouts(),
                        telemetry, b.grace(), o.dir(), o.metadata(), o.notes(), t.insecure(), c.client().ioThreads(),
                        c.scenario(), c.slo() == null ? null : c.slo().text(), o.exports(),
                        c.client().segment() == null ? null : c.client().segment().toString(), c.client().startAt(),
                        c.client().startInstant(), o.gpuHourPrice() == null ? null : o.gpuHourPrice().text(),
                        b.stopOnSaturation());
            }
        }

        static final class FromWire extends StdConverter<Wire, RunConfig> {
            @Override
            public RunConfig convert(Wire w) {
                WireData d = w.data();
                WireLoad l = w.load();
                Load load;
                if ("closed".equals(l.mode())) {
                    load = Load.Closed.of(l.concurrency(), l.profile());
                } else if ("trace".equals(l.arrival())) {
                    load = new Load.Trace(d.trace(), d.traceSpeed() == null ? 1.0 : d.traceSpeed(), l.maxConcurrency());
                } else {
                    Load.Arrival arrival = l.arrival() == null ? Load.Arrival.POISSON : Load.Arrival.parse(l.arrival());
                    load = Load.Open.of(l.requestRate(), arrival, arrival == Load.Arrival.GAMMA ? l.burstiness() : null,
                            l.maxConcurrency(), l.profile());
                }
                WireSessions s = d.sessions();
                Sessions sessions = s == null ? null : new Sessions(Lengths.parse("--sessions", s.turns()),
                        Lengths.parse("--think-time", s.thinkTimeMs()), s.maxSessions());
                WireTelemetry t = w.telemetry();
                return new RunConfig(
                        new Target(Target.ServerUrl.parse(w.url()), w.api(), w.model(), w.stream(), w.ignoreEos(),
                                w.insecure(), null),
                        load,
                        new Data(Lengths.parse("--input-tokens", d.inputTokens(), d.rangeRatio()),
                                Lengths.parse("--output-tokens", d.outputTokens(), d.rangeRatio()), d.rangeRatio(),
                                d.dataset(), d.datasetFormat(), d.sharedPrefix(), d.tokenizer(),
                                // A configuration recorded before batch sizes existed means one input per request.
                                d.batchSize() == null ? 1 : d.batchSize(), d.images()),
                        sessions,
                        new Bounds(w.numRequests(), w.duration(), w.warmup(), w.warmupTime(),
                                w.timeouts() == null ? Timeouts.defaults() : w.timeouts(), w.grace(),
                                w.stopOnSaturation()),
                        new Client(w.ioThreads(), w.segment() == null ? null
                                : ConfigException.parsing("segment", () -> Segment.parse(w.segment(), Map.of())),
                                w.startAt(), w.startAt() == null ? null : w.startInstant()),
                        new Telemetry(t.serverMetrics(), t.serverKind(), t.gpuMetrics() == null ? List.of() : t.gpuMetrics(),
                                t.nvidiaSmi() == null ? null : t.nvidiaSmiInterval(), t.scrapeInterval()),
                        new Output(w.outputDir(), w.exports() == null ? List.of() : w.exports(),
                                w.metadata() == null ? Map.of() : w.metadata(), w.notes() == null ? List.of() : w.notes(),
                                GpuPrice.parse(w.gpuHourPrice())),
                        SloLimits.parse(w.slo()), w.seed(), w.scenario());
            }
        }
    }
}
