package dev.llmload.run;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.load.Dispatcher;
import dev.llmload.load.LoadPlan;
import dev.llmload.load.PreparedFeed;
import dev.llmload.load.Recorder;
import dev.llmload.metrics.RunResults;
import dev.llmload.protocol.OpenAiCodec;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.Journal;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.ClientHost;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.Schedule;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.source.JsonlSource;
import dev.llmload.workload.source.OutputLengths;
import dev.llmload.workload.source.RequestSource;
import dev.llmload.workload.source.SyntheticSource;
import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One benchmark run from a resolved {@link RunConfig} to a run directory: checks the data and the
 * server, computes the schedule, sends the load, journals every request as it finishes, and
 * writes the report. {@link #execute} runs on the caller's thread, which becomes the dispatcher;
 * {@link #stop} may be called from any thread (a signal handler) and still yields a report of
 * what finished.
 */
public final class BenchmarkRun {

    public static final String TOOL_NAME = "llmload";

    /** What a finished run left: its directory, its report and every request's record. */
    public record Result(Path directory, RunReport report, List<RequestRecord> records) {}

    private final RunConfig config;
    private final String apiKey;
    private final String commandLine;
    private final String toolVersion;
    private final Consumer<RequestRecord> progress;
    private volatile Dispatcher dispatcher;
    private volatile boolean stopRequested;

    /**
     * @param apiKey   bearer token or null; it goes only into the Authorization header
     * @param progress hears each finished request on the recorder thread (for live progress)
     */
    public BenchmarkRun(RunConfig config, String apiKey, String commandLine, String toolVersion,
                        Consumer<RequestRecord> progress) {
        this.config = config;
        this.apiKey = apiKey;
        this.commandLine = commandLine;
        this.toolVersion = toolVersion;
        this.progress = progress;
    }

    /** Stops sending; in-flight requests get the grace period, then the report is written. */
    public void stop() {
        stopRequested = true;
        Dispatcher current = dispatcher;
        if (current != null) {
            current.stop();
        }
    }

    public Result execute() throws RunException, IOException, InterruptedException {
        Tokenizer tokenizer = tokenizer();
        LengthDistribution outputLengths = distribution("--output-tokens", config.outputTokens());
        if (config.dataset() != null) {
            try {
                JsonlSource.prescan(config.dataset());
            } catch (DatasetException e) {
                throw new RunException(e.getMessage(), e);
            }
        }
        Endpoint endpoint = Endpoint.openAiBase(config.url());
        ServerProbe.ServerInfo server = ServerProbe.probe(endpoint, apiKey);
        String model = config.model() != null ? config.model() : server.model();
        if (model == null) {
            throw new RunException("the server at " + endpoint + " lists no model on /v1/models; give one with --model");
        }
        long count = config.numRequests() == null ? -1 : config.numRequests();
        LoadPlan plan = plan(count);
        OpenAiCodec codec = new OpenAiCodec(new RequestOptions(config.api(), model, config.stream(), config.ignoreEos(), null));
        Path directory = Files.createDirectories(config.outputDir());

        Instant startedAt = Instant.now();
        String runId = directory.getFileName().toString();
        List<RequestRecord> records;
        String sourceDescription;
        String contentHash;
        try (RequestSource source = source(tokenizer, outputLengths);
             PreparedFeed feed = new PreparedFeed(source, codec, count);
             LoadHttpClient client = new LoadHttpClient(endpoint, apiKey, config.ioThreads(),
                     config.timeouts().connect(), config.insecure())) {
            sourceDescription = source.describe();
            contentHash = source.contentHash();
            long runStart = System.nanoTime();
            try (Journal journal = Journal.create(directory.resolve(Journal.FILE_NAME))) {
                Recorder recorder = new Recorder(journal, tokenizer, runStart, progress);
                Dispatcher current = new Dispatcher(client, codec, config.timeouts(), plan, feed,
                        count < 0 ? Long.MAX_VALUE : count, config.duration(), config.warmup(), recorder, runStart,
                        runId + "-");
                dispatcher = current;
                if (stopRequested) {
                    current.stop();
                }
                try {
                    current.run(config.grace());
                } catch (DatasetException e) {
                    current.stop();
                    throw new RunException(e.getMessage(), e);
                }
                records = recorder.finish();
            }
        }
        RunReport report = report(runId, startedAt, Instant.now(), model, server, endpoint, sourceDescription,
                contentHash, records);
        ReportFiles.writeReport(directory, report);
        return new Result(directory, report, records);
    }

    private Tokenizer tokenizer() throws RunException {
        try {
            return Tokenizers.byName(config.tokenizer());
        } catch (IllegalArgumentException e) {
            throw new RunException(e.getMessage(), e);
        }
    }

    private static LengthDistribution distribution(String flag, String spec) throws RunException {
        try {
            return LengthDistribution.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new RunException(flag + ": " + e.getMessage(), e);
        }
    }

    private RequestSource source(Tokenizer tokenizer, LengthDistribution outputLengths) throws RunException {
        if (config.dataset() != null) {
            try {
                return JsonlSource.open(config.dataset(), tokenizer, OutputLengths.datasetOr(outputLengths), config.seed());
            } catch (DatasetException e) {
                throw new RunException(e.getMessage(), e);
            }
        }
        LengthDistribution inputLengths = distribution("--input-tokens", config.inputTokens());
        return new SyntheticSource(SyntheticPrompts.of(tokenizer), inputLengths, outputLengths, config.seed());
    }

    private LoadPlan plan(long count) throws RunException {
        LoadSpec load = config.load();
        if (!load.isOpen()) {
            return new LoadPlan.ClosedLoop(load.concurrency());
        }
        ArrivalProcess process = switch (load.arrival()) {
            case "poisson" -> new ArrivalProcess.Poisson(load.requestRate());
            case "constant" -> new ArrivalProcess.Constant(load.requestRate());
            case "gamma" -> new ArrivalProcess.Gamma(load.requestRate(), load.burstiness() == null ? 1.0 : load.burstiness());
            default -> throw new RunException("unknown --arrival '" + load.arrival() + "' (expected poisson, constant or gamma)");
        };
        int maxCount = count < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, count);
        Schedule schedule = Schedule.build(process, maxCount, config.duration(), config.seed());
        return new LoadPlan.OpenLoop(schedule.offsetsNanos(), load.maxConcurrency() == null ? 0 : load.maxConcurrency());
    }

    private RunReport report(String runId, Instant startedAt, Instant endedAt, String model,
                             ServerProbe.ServerInfo server, Endpoint endpoint, String sourceDescription,
                             String contentHash, List<RequestRecord> records) {
        RunResults results = RunResults.compute(records);
        var meta = config.metadata();
        List<RunReport.Note> notes = new ArrayList<>();
        for (String note : config.notes()) {
            notes.add(new RunReport.Note("user", note));
        }
        return new RunReport(
                RunReport.SCHEMA_VERSION,
                new RunReport.Tool(TOOL_NAME, toolVersion),
                new RunReport.Run(runId, startedAt.toString(), endedAt.toString(), commandLine, config.seed(),
                        stopRequested, ClientHost.discover()),
                new RunReport.Model(model, meta.get("model.parameters"), meta.get("model.precision"),
                        meta.get("model.quantization")),
                new RunReport.Service(endpoint.toString(), config.api().cliName(),
                        meta.getOrDefault("service.framework", server.ownedBy()),
                        meta.getOrDefault("service.version", server.version()),
                        meta.get("service.launch_args"), config.stream()),
                new RunReport.Hardware(meta.get("hardware.gpu_model"), integer(meta.get("hardware.gpu_count")),
                        decimal(meta.get("hardware.gpu_memory_gib")), meta.get("hardware.cpu"),
                        decimal(meta.get("hardware.ram_gib"))),
                RunReport.Load.of(config.load(), config.numRequests(),
                        config.duration() == null ? null : config.duration().toMillis() / 1000.0, config.warmup()),
                new RunReport.Data(sourceDescription, contentHash,
                        new RunReport.TokenShape(config.dataset() == null ? config.inputTokens() : null, results.inputTokens()),
                        new RunReport.TokenShape(config.outputTokens(), results.outputTokens())),
                results,
                null,
                notes,
                config);
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
    public static Path defaultOutputDir(String url, LoadSpec load) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneId.systemDefault()).format(Instant.now());
        String target = Endpoint.parse(url).hostHeader().replaceAll("[^A-Za-z0-9.-]+", "_");
        return Path.of("results", stamp + "-" + target + "-" + load.label());
    }

}
