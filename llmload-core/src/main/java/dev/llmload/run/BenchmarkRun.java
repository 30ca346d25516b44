package dev.llmload.run;

import dev.llmload.analysis.TimeSeries;
import dev.llmload.client.ClientCost;
import dev.llmload.client.ClientMonitor;
import dev.llmload.client.ClientRecording;
import dev.llmload.config.Bounds;
import dev.llmload.config.Client;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Telemetry;
import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.live.LiveMetrics;
import dev.llmload.load.LoadPhase;
import dev.llmload.load.LoadPlan;
import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.ImageInputs;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.InputLog;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.JournalWriteException;
import dev.llmload.record.RecordSource;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.ClientHost;
import dev.llmload.report.Measurements;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import dev.llmload.report.write.RunFiles;
import dev.llmload.segment.ClockSyncProbe;
import dev.llmload.segment.RequestId;
import dev.llmload.segment.Segment;
import dev.llmload.segment.StartGate;
import dev.llmload.telemetry.TelemetryCollector;
import dev.llmload.telemetry.TelemetryConfig;
import dev.llmload.telemetry.TelemetryRecording;
import dev.llmload.telemetry.analysis.ClientFigures;
import dev.llmload.telemetry.analysis.TelemetryNotes;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import dev.llmload.telemetry.analysis.WindowAnalysis;
import dev.llmload.telemetry.gpu.Hardware;
import dev.llmload.workload.ContentHash;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.session.AgenticSessions;
import dev.llmload.workload.session.SessionSource;
import dev.llmload.workload.session.SessionSupply;
import dev.llmload.workload.session.TraceSessions;
import dev.llmload.workload.source.RequestSource;
import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.Tokenizers;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * One benchmark run from a resolved {@link RunConfig} to a run directory: checks the data and the
 * server, computes the schedule, sends the load, journals every request as it finishes, and
 * writes the report. {@link #execute} runs on the caller's thread, which becomes the dispatcher;
 * {@link #stop} may be called from any thread (a signal handler) and still yields a report of
 * what finished.
 */
public final class BenchmarkRun {

    public static final String TOOL_NAME = "llmload";

    /**
     * What a finished run left: its directory and its report. The run holds no request's record
     * (its memory does not grow with its requests); they are read back from its journal on demand.
     */
    public record Result(Path directory, RunReport report) {

        /** Every request's record with its token events, read back from the run's journal. */
        public List<RequestRecord> journaledRecords() throws IOException {
            return JournalReader.read(directory.resolve(Journal.FILE_NAME));
        }

        /** Every request's record without its token gaps ({@link RequestRecord#withoutTokenGaps}), from the journal. */
        public List<RequestRecord> records() throws IOException {
            List<RequestRecord> records = new ArrayList<>();
            JournalReader.forEachWithoutTokenGaps(directory.resolve(Journal.FILE_NAME), records::add);
            return records;
        }
    }

    private final RunConfig config;
    private final String targetUrl;
    private final String apiKey;
    private final String commandLine;
    private final String toolVersion;
    private final Consumer<RequestRecord> progress;
    /** Stops the dispatcher (of requests or of sessions) once there is one. */
    private volatile Runnable stopSending;
    /** Counts the requests in flight once there is a load phase. */
    private volatile IntSupplier inFlight = () -> 0;

    private volatile boolean stopRequested;
    /** Hears the client's event loops once the client is ready, before the load: a test's way onto them. */
    private Consumer<List<EventLoop>> eventLoopHook = loops -> {};
    /** Watches the load while it runs (the live view, --live-metrics); null without. Set before {@link #execute}. */
    private LiveMetrics live;
    /** The segment and its start as the report records them; set on the run's thread. */
    private RunReport.SegmentStart segmentStart;

    /**
     * @param targetUrl the server to load: {@code config.target().url()}, or the embedded simulator's address
     *                  when the config names none (the config is recorded as given, so a repeat
     *                  starts a simulator of its own)
     * @param apiKey    bearer token or null; it goes only into the Authorization header
     * @param progress  hears each finished request on the recorder thread (for live progress)
     */
    public BenchmarkRun(
            RunConfig config,
            String targetUrl,
            String apiKey,
            String commandLine,
            String toolVersion,
            Consumer<RequestRecord> progress) {
        this.config = config;
        this.targetUrl = targetUrl;
        this.apiKey = apiKey;
        this.commandLine = commandLine;
        this.toolVersion = toolVersion;
        this.progress = progress;
        this.segmentStart = segmentStart(null, null);
    }

    /**
     * For tests: {@code hook} gets the load's event loops once the client is ready and before the
     * first request, e.g. to stall one and see that the run reports it.
     */
    void onEventLoops(Consumer<List<EventLoop>> hook) {
        this.eventLoopHook = hook;
    }

    /**
     * Lets {@code watcher} see the load as it goes: every journaled request, and from the run's
     * clock on the in-flight count, the event loops' lag and the server's newest scrape. Call before
     * {@link #execute}; the run stops it once every request is journaled.
     */
    public void watch(LiveMetrics watcher) {
        this.live = watcher;
    }

    /** Stops sending; in-flight requests get the grace period, then the report is written. */
    public void stop() {
        stopRequested = true;
        Runnable current = stopSending;
        if (current != null) {
            current.run();
        }
    }

    /** Requests sent and not yet finished (warm-up ones included), 0 outside the load. Any thread. */
    public int inFlight() {
        return inFlight.getAsInt();
    }

    public Result execute() throws RunException, IOException, InterruptedException {
        Tokenizer tokenizer = tokenizer();
        long count =
                config.bounds().numRequests() == null ? -1 : config.bounds().numRequests();
        long sessionCount =
                config.bounds().numSessions() == null ? -1 : config.bounds().numSessions();
        // The data is opened (and a file checked whole) before the server is contacted, so bad
        // data stops the run before any load.
        Segment segment = config.client().segment();
        SessionSupply allSessions = openSessions(tokenizer);
        SessionSupply sessions = switch (allSessions) {
            case null -> {
                if (sessionCount >= 0) {
                    // Only a trace whose format its file told gets here (the configuration refuses the rest).
                    throw new RunException("--num-sessions counts sessions, and the --trace "
                            + ((Load.Trace) config.load()).file() + " holds independent requests");
                }
                yield null;
            }
            case SessionSource chat -> segment == null ? chat : SegmentPart.sessions(chat, segment);
            case AgenticSessions agents -> {
                if (segment != null) {
                    throw new RunException("agent sessions run on one host: --segment does not apply to them");
                }
                yield agents;
            }
            case TraceSessions trace -> {
                if (segment != null) {
                    throw new RunException("a session trace runs on one host: --segment does not apply to it");
                }
                if (config.load() instanceof Load.Trace replay && replay.maxConcurrency() != null) {
                    throw new RunException("a session trace starts its sessions at their timestamps: "
                            + "--max-concurrency does not apply to it");
                }
                yield trace;
            }
        };
        RequestSource whole = sessions == null ? openSource(tokenizer) : null;
        try (RequestSource source = segment == null || whole == null ? whole : SegmentPart.requests(whole, segment)) {
            LoadPlan plan;
            try {
                plan = Traffic.plan(
                        config.load(),
                        starts(count, sessionCount),
                        config.bounds().duration(),
                        config.seed(),
                        sessions instanceof TraceSessions trace
                                ? trace.startOffsetsNanos()
                                : Workloads.traceOffsets(whole));
                if (segment != null) {
                    plan = SegmentPart.plan(plan, segment);
                    count = SegmentPart.count(plan, count, segment, sessions != null);
                    sessionCount = SegmentPart.sessionCount(sessionCount, segment);
                }
            } catch (IllegalArgumentException e) {
                throw new RunException(e.getMessage(), e);
            }
            Endpoint openAi = Endpoint.openAiBase(targetUrl);
            Map<String, String> headers = config.target().extras().headers();
            ServerProbe.ServerInfo server = ServerProbe.probe(
                    openAi,
                    apiKey,
                    config.target().api(),
                    headers,
                    config.target().insecure(),
                    config.bounds().timeouts().connect());
            ApiKind api = config.target().api() == ApiKind.AUTO
                    ? ServerProbe.resolveAuto(
                            openAi,
                            server,
                            apiKey,
                            headers,
                            config.target().insecure(),
                            config.bounds().timeouts().connect())
                    : config.target().api();
            Endpoint endpoint = api.atServerRoot() ? Endpoint.nativeBase(targetUrl) : openAi;
            String model = config.target().model() != null ? config.target().model() : server.model();
            if (model == null) {
                throw new RunException(
                        "the server at " + openAi + " lists no model on /v1/models; give one with --model");
            }
            Dialect dialect;
            try {
                dialect = Dialect.of(new RequestOptions(
                        api,
                        model,
                        config.target().stream(),
                        config.target().ignoreEos(),
                        config.target().extras(),
                        config.data().batchSize(),
                        config.data().images(),
                        config.seed()));
            } catch (IllegalArgumentException e) {
                throw new RunException(e.getMessage(), e);
            }
            Path directory = createDirectory(config.output().dir());
            String runId = directory.getFileName().toString();
            String startedAt = Instant.now().toString();
            // The data's hash is taken when run.json is written, after the test request: a synthetic
            // source's hash names its words, which read the tokenizer's vocabulary.
            Supplier<RunRecordParts> parts = () -> new RunRecordParts(
                    runId,
                    startedAt,
                    model,
                    api,
                    server,
                    endpoint,
                    sessions != null ? sessions.describe() : source.describe(),
                    withImages(sessions != null ? sessions.contentHash() : source.contentHash()));
            try (TelemetryCollector telemetry = new TelemetryCollector(telemetryConfig(endpoint))) {
                Sent sent = send(
                        source,
                        sessions,
                        dialect,
                        endpoint,
                        plan,
                        count,
                        sessionCount,
                        tokenizer,
                        directory,
                        runId,
                        telemetry,
                        () -> report(parts.get(), null, List.of(), null));
                // The telemetry's notes (its probe's among them) come once, from its recording.
                List<Note> telemetryNotes = new ArrayList<>();
                if (sent.stopNote() != null) {
                    telemetryNotes.add(sent.stopNote());
                }
                TelemetryRecording recording = telemetry.stop();
                // The run held no record while it ran: the report is derived from the journal, as
                // 'llmload report' derives it (passes, no record held), so the two agree and the
                // run's memory does not grow with its requests.
                Path journal = directory.resolve(Journal.FILE_NAME);
                RecordSource compact = consumer -> JournalReader.forEachWithoutTokenGaps(journal, consumer);
                RecordSource full = JournalReader.source(List.of(journal));
                Measurements measurements = Measurements.derive(compact, full, config);
                TelemetrySummary summary = summariseTelemetry(
                        recording, sent, compact, measurements, config.load() instanceof Load.Closed, telemetryNotes);
                ClientCost client = clientCost(sent, measurements);
                client.note().ifPresent(telemetryNotes::add);
                RunReport report = report(parts.get(), summary, telemetryNotes, client)
                        .withMeasurements(measurements, Instant.now().toString(), stopRequested);
                try {
                    RunFiles.write(directory, report, measurements.page(), full);
                } catch (IOException e) {
                    // The journal is whole: the report can be written from it later, once there is room.
                    throw new RunException(
                            "cannot write the report in " + directory + " (" + e.getMessage()
                                    + "): requests.jsonl holds every request, and 'llmload report " + directory
                                    + "' writes the report from it once there is room",
                            e,
                            report);
                }
                return new Result(directory, report);
            }
        }
    }

    /**
     * The data's content hash, with the synthetic images folded in when {@code --images} adds them:
     * their pixels follow from the seed and the image size, so those identify them.
     */
    private String withImages(String contentHash) {
        ImageInputs images = config.data().images();
        return images == null
                ? contentHash
                : ContentHash.of(contentHash + " images " + images.count() + ":" + images.width() + "x"
                        + images.height() + " seed " + config.seed());
    }

    /** What the report says about the run that is known before the first request. */
    private record RunRecordParts(
            String runId,
            String startedAt,
            String model,
            ApiKind api,
            ServerProbe.ServerInfo server,
            Endpoint endpoint,
            String sourceDescription,
            String contentHash) {}

    /**
     * What a run's sending left beside its journal: the clock reading the records' offsets are
     * relative to, and what the client cost.
     *
     * @param stopNote       why {@code --stop-on-saturation} ended the sending; null when it did not
     */
    private record Sent(long runStartNanos, ClientRecording client, Note stopNote) {}

    /**
     * The client's cost over the measured phase, in the seconds of its time series; over the whole
     * load when nothing was measured. The built-in simulator runs in this process when the config
     * names no server.
     */
    private ClientCost clientCost(Sent sent, Measurements measurements) {
        ClientRecording recording = sent.client();
        Double durationS = measurements.results().durationS();
        long[] cpuAt = recording.cpuAtNanos();
        long start = durationS == null
                ? recording.originNanos()
                : sent.runStartNanos() + measurements.timeseries().startNanos();
        long end = durationS == null
                ? recording.originNanos() + (cpuAt.length == 0 ? 0 : cpuAt[cpuAt.length - 1])
                : start + (long) (durationS * 1e9);
        return ClientCost.summarise(
                recording,
                start,
                end,
                measurements.timeseries().seconds().size(),
                config.target().url() == null);
    }

    private TelemetryConfig telemetryConfig(Endpoint endpoint) {
        Telemetry spec = config.telemetry();
        if (config.client().segment() != null && config.client().segment().index() != 0) {
            // Segment 0 scrapes for the whole run, so the server sees one scraper.
            return new TelemetryConfig(
                    null, null, List.of(), null, TelemetryConfig.DEFAULT_INTERVAL, spec.scrapeInterval());
        }
        URI server = switch (spec.serverMetrics()) {
            case Telemetry.ServerMetrics.Off off -> null;
            case Telemetry.ServerMetrics.Auto auto -> URI.create(endpoint.rootUrl("/metrics"));
            case Telemetry.ServerMetrics.Url url -> url.uri();
        };
        return new TelemetryConfig(
                server,
                spec.serverKind(),
                spec.gpuMetrics(),
                spec.nvidiaSmi() == null ? null : "nvidia-smi",
                spec.nvidiaSmi() == null ? TelemetryConfig.DEFAULT_INTERVAL : spec.nvidiaSmi(),
                spec.scrapeInterval());
    }

    /** Telemetry over the measured window: first intended send to last completion of measured requests. */
    private static TelemetrySummary summariseTelemetry(
            TelemetryRecording recording,
            Sent sent,
            RecordSource records,
            Measurements measurements,
            boolean closedLoop,
            List<Note> notes)
            throws IOException {
        notes.addAll(recording.notes());
        RunResults results = measurements.results();
        if (results.durationS() == null
                || (recording.server().isEmpty() && recording.gpu().isEmpty())) {
            return null;
        }
        // The series' origin is the first intended send; the window ends at the last completion.
        long start = sent.runStartNanos() + measurements.timeseries().startNanos();
        long end = start + Math.round(results.durationS() * 1e9);
        TelemetrySummary summary = WindowAnalysis.summarise(recording, start, end);
        // What the server counted: the prompt of every request it began to answer (a first token
        // means its prefill ran), and every token it sent, also those of requests that then failed.
        long[] tokens = {0, 0};
        records.forEach(r -> {
            if (!r.warmup()) {
                if (r.succeeded() || r.timings().tokenEventNanos().length > 0) {
                    tokens[0] += r.inputTokens();
                }
                tokens[1] += r.outputTokens();
            }
        });
        ClientFigures client = new ClientFigures(
                results.ttftMs().p50(),
                tokens[0],
                tokens[1],
                results.e2eLatencyMs().p99(),
                ClientFigures.DEFAULT_HIGH_LATENCY_MS,
                closedLoop);
        notes.addAll(TelemetryNotes.evaluate(summary, client));
        return summary;
    }

    /**
     * Opens the client, sends the test request, then what it did not need but the load does:
     * run.json ({@code runRecord}; written before the journal, so an interrupted or killed run can
     * be rebuilt from it) and the telemetry's probe; then the load.
     *
     * @param sessions the sessions to run; null to send {@code source}'s requests
     */
    private Sent send(
            RequestSource source,
            SessionSupply sessions,
            Dialect dialect,
            Endpoint endpoint,
            LoadPlan plan,
            long count,
            long sessionCount,
            Tokenizer tokenizer,
            Path directory,
            String runId,
            TelemetryCollector telemetry,
            Supplier<RunReport> runRecord)
            throws IOException, InterruptedException, RunException {
        Bounds bounds = config.bounds();
        try (LoadHttpClient client = new LoadHttpClient(
                        endpoint,
                        apiKey,
                        dialect.keyHeader(),
                        config.client().ioThreads(),
                        bounds.timeouts().connect(),
                        config.target().insecure());
                LoadPhase phase = LoadPhase.open(
                        source, sessions, client, dialect, bounds.timeouts(), plan, count, sessionCount)) {
            stopSending = phase::stop;
            inFlight = phase::inFlight;
            SaturationWatch watch =
                    bounds.stopOnSaturation() && sessions == null && plan instanceof LoadPlan.OpenLoop open
                            ? new SaturationWatch(open.offsetsNanos(), bounds.warmup(), phase::stop)
                            : null;
            if (stopRequested) {
                phase.stop();
            }
            Optional<String> refusal;
            RunReport start;
            try {
                refusal = phase.getReady(connections(plan), runId + "-test", tokenizer, READY_TIMEOUT);
                // The feed has made its first prompts by now, or failed to: a synthetic source's
                // words (part of its hash) are picked.
                start = refusal.isPresent() ? null : runRecord.get();
            } catch (DatasetException e) {
                throw new RunException(e.getMessage(), e);
            }
            if (refusal.isPresent()) {
                // Refused credentials or an unknown model or path fail every request alike: say so now.
                throw new RunException(
                        "the server refused llmload's test request, so every request would fail: " + refusal.get());
            }
            try {
                ReportFiles.writeRunStart(directory, start);
            } catch (IOException e) {
                throw cannotStart(directory.resolve(ReportFiles.RUN_START_JSON), e);
            }
            telemetry.probe();
            try (Journal journal = createJournal(directory);
                    InputLog inputs = createInputLog(directory)) {
                eventLoopHook.accept(client.eventLoops());
                // Before the monitor: what settling costs (a collection) is start-up's, not the load's.
                phase.settle();
                ClientMonitor monitor = ClientMonitor.start(client.eventLoops(), phase.firstSend());
                long runStart;
                ClientRecording cost;
                try {
                    // The baseline scrape comes before the clock: the first requests of an open
                    // loop are due within milliseconds of it, and waited for the scrape when it
                    // came after (28 ms at 500 requests/s). With --start-at the scrapes go on
                    // while the instant is awaited, so the baseline is at most one interval old.
                    telemetry.start();
                    runStart = startClock();
                    if (live != null) {
                        live.start(new LiveMetrics.Sources(
                                runStart,
                                phase::inFlight,
                                monitor::takeMaxLoopLagNanos,
                                telemetry::latestServerReading,
                                plan instanceof LoadPlan.OpenLoop open ? open.offsetsNanos() : null));
                    }
                    phase.send(
                            journal,
                            tokenizer,
                            runStart,
                            bounds.duration(),
                            bounds.warmup(),
                            bounds.warmupTime(),
                            bounds.grace(),
                            idPrefix(runId),
                            inputs,
                            listener(watch));
                } catch (DatasetException e) {
                    throw new RunException(e.getMessage(), e);
                } catch (JournalWriteException e) {
                    throw new RunException(
                            e.getMessage() + ": the run stopped at once; the journal keeps its "
                                    + e.wholeLines() + " whole lines, and 'llmload report " + directory
                                    + "' rebuilds the report from them once there is room",
                            e);
                } finally {
                    try {
                        if (live != null) {
                            live.stop();
                        }
                    } finally {
                        cost = monitor.stop();
                    }
                }
                return new Sent(runStart, cost, watch == null ? null : watch.note());
            }
        }
    }

    /** Who hears each journaled request, on the recorder thread: the progress, the live view, the saturation watch. */
    private Consumer<RequestRecord> listener(SaturationWatch watch) {
        Consumer<RequestRecord> listener = live == null ? progress : progress.andThen(live::record);
        return watch == null ? listener : listener.andThen(watch);
    }

    /** The connections the load needs from its start, opened before the run's clock starts. */
    private int connections(LoadPlan plan) {
        int inFlight = switch (plan) {
            case LoadPlan.ClosedLoop closed -> closed.concurrency().concurrencyAt(0);
            case LoadPlan.OpenLoop open -> open.maxConcurrency() > 0 ? open.maxConcurrency() : OPEN_LOOP_CONNECTIONS;
        };
        int sessions = config.sessions() == null || config.sessions().maxSessions() == null
                ? 0
                : config.sessions().maxSessions();
        return Math.max(inFlight, sessions);
    }

    /**
     * The most arrivals an open loop's schedule needs: one per request, or with sessions one per
     * session, no more than the requests and, with {@code --num-sessions}, than the sessions (only
     * the first that many arrivals start); -1 for no bound.
     */
    private static long starts(long count, long sessionCount) {
        if (sessionCount < 0) {
            return count;
        }
        return count < 0 ? sessionCount : Math.min(count, sessionCount);
    }

    /** Request ids: {@code <run>-<index>}, or {@code <run>-s<I>of<N>-<index>} with the whole run's index. */
    private String idPrefix(String runId) {
        return RequestId.prefix(runId, config.client().segment());
    }

    /**
     * The run's clock origin: now, or with {@code --start-at} the shared instant (waited for here,
     * on the run's own thread, after everything that can be done before it is done). A segment
     * records how its start went.
     */
    private long startClock() throws InterruptedException {
        Client part = config.client();
        if (part.startInstant() == null) {
            long origin = System.nanoTime();
            if (part.segment() != null) {
                // A segment started when ready still says when, by its clock: a merge places its
                // records on the wall clock from it (the merged journal's *_epoch_ns).
                segmentStart = segmentStart(null, StartGate.wallClockAt(origin));
            }
            return origin;
        }
        StartGate.Start start = StartGate.await(part.startInstant());
        segmentStart = segmentStart(start, start.originWallClock());
        return start.originNanos();
    }

    /**
     * This run's segment and start for the report; before the start (both null), without its
     * figures.
     *
     * @param start           how the shared start went; null without {@code --start-at}
     * @param originWallClock the wall-clock instant of the run's clock origin; null before the start
     */
    private RunReport.SegmentStart segmentStart(StartGate.Start start, Instant originWallClock) {
        Client part = config.client();
        Segment segment = part.segment() == null ? Segment.whole() : part.segment();
        if (part.segment() == null && start == null) {
            return null;
        }
        return new RunReport.SegmentStart(
                segment.index(),
                segment.count(),
                part.startAt(),
                part.startInstant() == null ? null : part.startInstant().toString(),
                originWallClock == null ? null : originWallClock.toString(),
                start == null ? null : start.errorNanos() / 1e6,
                start == null ? null : ClockSyncProbe.ofThisHost().probe());
    }

    /** Connections opened ahead for an open loop without a gate: its peak in flight is not known. */
    private static final int OPEN_LOOP_CONNECTIONS = 32;

    private static final java.time.Duration READY_TIMEOUT = java.time.Duration.ofSeconds(30);

    private static Path createDirectory(Path dir) throws RunException {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw cannotStart(dir, e);
        }
    }

    private static InputLog createInputLog(Path directory) throws RunException {
        try {
            return InputLog.create(directory.resolve(InputLog.FILE_NAME));
        } catch (IOException e) {
            throw cannotStart(directory.resolve(InputLog.FILE_NAME), e);
        }
    }

    private static Journal createJournal(Path directory) throws RunException {
        try {
            return Journal.create(directory.resolve(Journal.FILE_NAME));
        } catch (IOException e) {
            throw cannotStart(directory.resolve(Journal.FILE_NAME), e);
        }
    }

    /** A file the run needs before its load could not be written (a full disk, no permission): one line. */
    private static RunException cannotStart(Path file, IOException e) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new RunException("cannot write " + file + " (" + reason + "); the load did not start", e);
    }

    private Tokenizer tokenizer() throws RunException {
        try {
            return Tokenizers.byName(config.data().tokenizer());
        } catch (IllegalArgumentException e) {
            throw new RunException(e.getMessage(), e);
        }
    }

    private SessionSupply openSessions(Tokenizer tokenizer) throws RunException {
        try {
            return Workloads.openSessions(config.sessions(), config.data(), config.load(), tokenizer, config.seed());
        } catch (DatasetException | IllegalArgumentException e) {
            throw new RunException(e.getMessage(), e);
        }
    }

    private RequestSource openSource(Tokenizer tokenizer) throws RunException {
        try {
            return Workloads.open(config.data(), config.load(), tokenizer, config.seed());
        } catch (DatasetException | IllegalArgumentException e) {
            throw new RunException(e.getMessage(), e);
        }
    }

    /**
     * The run's record without measurements (empty results, no end time): the content of
     * {@code run.json}, and at the end the base that {@link RunReport#withMeasurements} completes.
     *
     * @param toolNotes notes from telemetry and the client; the user's notes follow them
     * @param client    what the client cost; null before the load
     */
    private RunReport report(
            RunRecordParts parts, TelemetrySummary telemetry, List<Note> toolNotes, ClientCost client) {
        var meta = config.output().metadata();
        RunResults results = RunResults.compute(List.of(), null);
        List<Note> notes = new ArrayList<>(toolNotes);
        for (String note : config.output().notes()) {
            notes.add(Note.user(note));
        }
        Hardware gpus = telemetry == null ? null : telemetry.hardware();
        return new RunReport(
                RunReport.SCHEMA_VERSION,
                new RunReport.Tool(TOOL_NAME, toolVersion),
                new RunReport.Run(
                        parts.runId(),
                        parts.startedAt(),
                        null,
                        commandLine,
                        config.seed(),
                        false,
                        ClientHost.discover(),
                        segmentStart,
                        null),
                new RunReport.Model(
                        parts.model(),
                        meta.get("model.parameters"),
                        meta.get("model.precision"),
                        meta.get("model.quantization"),
                        parts.server().maxModelLen()),
                new RunReport.Service(
                        parts.endpoint().toString(),
                        parts.api().cliName(),
                        meta.getOrDefault("service.framework", parts.server().framework()),
                        meta.getOrDefault("service.version", parts.server().version()),
                        meta.get("service.launch_args"),
                        config.target().stream()),
                new RunReport.Hardware(
                        meta.getOrDefault("hardware.gpu_model", gpus == null ? null : gpus.gpuModel()),
                        meta.containsKey("hardware.gpu_count") || gpus == null
                                ? integer(meta.get("hardware.gpu_count"))
                                : gpus.gpuCount(),
                        meta.containsKey("hardware.gpu_memory_gib") || gpus == null
                                ? decimal(meta.get("hardware.gpu_memory_gib"))
                                : gpus.gpuMemoryGib(),
                        meta.get("hardware.cpu"),
                        decimal(meta.get("hardware.ram_gib"))),
                RunReport.Load.of(config),
                new RunReport.Data(
                        parts.sourceDescription(),
                        parts.contentHash(),
                        new RunReport.TokenShape(
                                config.data().dataset() == null && !(config.load() instanceof Load.Trace)
                                        ? config.data().inputTokens().text()
                                        : null,
                                results.inputTokens()),
                        new RunReport.TokenShape(config.data().outputTokens().text(), results.outputTokens())),
                results,
                telemetry,
                null,
                notes,
                config,
                TimeSeries.of(List.of()),
                null,
                client,
                null,
                null);
    }

    private static Integer integer(String text) {
        try {
            return text == null ? null : Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double decimal(String text) {
        try {
            return text == null ? null : Double.valueOf(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The default run directory: {@code results/<timestamp>-<target>-<load>}. */
    public static Path defaultOutputDir(String url, Load load) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(ZoneId.systemDefault())
                .format(Instant.now());
        String target = Endpoint.parse(url).hostHeader().replaceAll("[^A-Za-z0-9.-]+", "_");
        return Path.of("results", stamp + "-" + target + "-" + load.label());
    }
}
