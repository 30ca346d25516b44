package dev.llmload.cli;

import dev.llmload.config.OptionTable;
import dev.llmload.config.RunConfig;
import dev.llmload.config.SloLimits;
import dev.llmload.live.LiveMetrics;
import dev.llmload.live.MetricsEndpoint;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.OutputDirectory;
import dev.llmload.run.RunException;
import dev.llmload.segment.Segment;
import dev.llmload.sweep.CapacitySearch;
import dev.llmload.sweep.SweepMode;
import dev.llmload.sweep.SweepReport;
import dev.llmload.sweep.SweepRunner;
import dev.llmload.sweep.SweepValues;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code llmload sweep}: a series of load points, each a run directory under one sweep directory;
 * or a search for the highest load that meets percentile SLOs. Every option of {@code llmload run}
 * that describes the target, the data and the workload is accepted (the same {@link RunOptions}),
 * so a point is exactly the run {@code llmload run} would make at that load.
 */
@Command(
        name = "sweep",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        usageHelpWidth = 110,
        modelTransformer = SweepCommand.Options.class,
        description = {
            "Run a series of load points, or search the capacity under SLOs, and write a sweep directory.",
            "Give exactly one of --concurrency LIST, --request-rate LIST, --auto or --find-capacity.",
            "Every option of 'llmload run' that describes the target, the data and the workload is accepted too",
            "(e.g. --url, --model, --input-tokens, --num-requests, --seed, --arrival; see 'llmload run --help');",
            "--slo here takes percentile limits. See docs/sweep-and-compare.md."
        })
public final class SweepCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--concurrency",
            paramLabel = "LIST",
            description = "Closed-loop points: a list 1,2,4,8 or START:STOP:STEP.")
    String concurrency;

    @Option(
            names = "--request-rate",
            paramLabel = "LIST",
            description = "Open-loop points in req/s: a list 2,4,8 or START:STOP:STEP, e.g. 2:40:2.")
    String requestRate;

    @Option(
            names = "--auto",
            description = "One request at a time (baseline throughput), then all at once (maximum throughput), "
                    + "then --points rates evenly spaced from the one to the other.")
    boolean auto;

    @Option(
            names = "--points",
            paramLabel = "N",
            defaultValue = "5",
            description = "--auto: rates after the two measuring points. Default: ${DEFAULT-VALUE}.")
    int points;

    @Option(
            names = "--unbounded-concurrency",
            paramLabel = "N",
            description =
                    "--auto: requests in flight for the maximum throughput. Default: --num-requests, at most 512.")
    Integer unboundedConcurrency;

    @Option(
            names = "--find-capacity",
            description = "Search the highest load whose run meets every --slo limit: double until a point fails, "
                    + "then bisect to --precision, then re-run the answer once.")
    boolean findCapacity;

    @Option(
            names = "--by",
            paramLabel = "AXIS",
            defaultValue = "rate",
            description = "--find-capacity: search a request rate or a concurrency. Default: ${DEFAULT-VALUE}.")
    String by;

    @Option(
            names = "--slo",
            paramLabel = "LIMITS",
            description = "Percentile limits a point must meet, e.g. p99_ttft:1000,p99_tpot:50,error_rate:0.01 "
                    + "(p50|p90|p95|p99|mean of ttft|tpot|itl|e2e in ms; error_rate a share). Per-request limits as "
                    + "llmload run takes them (ttft:500,tpot:50) are accepted too: each point then reports goodput.")
    String slo;

    @Option(
            names = "--start",
            paramLabel = "X",
            defaultValue = "1",
            description = "--find-capacity: the first load tried. Default: ${DEFAULT-VALUE}.")
    double start;

    @Option(
            names = "--precision",
            paramLabel = "X[%]",
            defaultValue = "5%",
            description = "--find-capacity: stop bisecting when the bracket is this narrow, relative (5%%) or absolute "
                    + "(0.5). Default: ${DEFAULT-VALUE}.")
    String precision;

    @Option(
            names = "--max-points",
            paramLabel = "N",
            defaultValue = "12",
            description = "--find-capacity: at most N runs, the re-run included. Default: ${DEFAULT-VALUE}.")
    int maxPoints;

    @Option(
            names = "--cool-down",
            paramLabel = "TIME",
            converter = DurationConverter.class,
            defaultValue = "0s",
            description = "Pause between runs (points, and repeats), e.g. 10s. Default: ${DEFAULT-VALUE}.")
    Duration coolDown;

    @Option(
            names = "--repeat",
            paramLabel = "K",
            defaultValue = "1",
            description = "Run each point K times, into POINT/repeat-1 .. repeat-K with POINT/repeats.json; a point is "
                    + "judged on each metric's mean across its runs, and with --slo its pass is confirmed only when "
                    + "each limit's 95%% interval lies within it (a capacity search counts only confirmed passes). "
                    + "Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(
            names = "--knee-factor",
            paramLabel = "K",
            defaultValue = "2",
            description = "The knee is where throughput stops growing (within 10%% of the best so far) while p99 "
                    + "TTFT or E2E rises above K times the plateau's first point. Default: ${DEFAULT-VALUE}.")
    double kneeFactor;

    @Option(
            names = "--output-dir",
            paramLabel = "DIR",
            description = "Sweep directory. Default: results/<timestamp>-sweep-<target>.")
    Path outputDir;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "Continue an interrupted sweep in DIR (give the same options): points whose run directory "
                    + "holds a complete report of the same configuration are kept, not run again.")
    Path resume;

    /** The options of {@code llmload run} but the four spelled here as lists, percentiles and a sweep directory. */
    final RunOptions run = new RunOptions();

    /** Adds the run options to the command, but the points, which a sweep spells its own way. */
    static final class Options implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec spec) {
            return RunOptions.addTo(spec, ((SweepCommand) spec.userObject()).run, false);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (run.configPending()) {
            return run.withConfig(spec, SweepCommand::new, command -> command.run, false)
                    .call();
        }
        long chosen = Stream.of(concurrency != null, requestRate != null, auto, findCapacity)
                .filter(b -> b)
                .count();
        if (chosen != 1) {
            throw new UsageException(
                    "give exactly one of --concurrency LIST, --request-rate LIST, --auto and " + "--find-capacity");
        }
        // One --slo syntax with run: percentile limits judge the points, per-request ones are each point's goodput.
        SloLimits given = SloLimits.parse(slo);
        PercentileSlo limits = given == null ? null : given.percentiles();
        if (given == null && findCapacity) {
            throw new UsageException("--find-capacity needs --slo, e.g. --slo p99_ttft:1000,error_rate:0.01");
        }
        if (limits == null && findCapacity) {
            throw new UsageException("--find-capacity needs --slo with a percentile limit, e.g. p99_ttft:1000: "
                    + "per-request limits such as ttft:500 give each point's goodput, not a pass");
        }
        if (!(kneeFactor > 1)) {
            throw new UsageException("--knee-factor must be above 1, got " + kneeFactor);
        }
        if (resume != null && outputDir != null) {
            throw new UsageException("give --resume DIR or --output-dir DIR, not both");
        }
        if (resume != null && !Files.isDirectory(resume)) {
            throw new UsageException("--resume: no such directory: " + resume);
        }
        // The swept kind of load at a first value, keeping the user's arrival, burstiness and gate for rates.
        boolean rates = requestRate != null || auto || (findCapacity && by.equals("rate"));
        RunConfig.Builder builder = run.builder().slo(given == null ? null : given.perRequestText());
        // A shaped load sets its own rates and is refused below as not sweepable: no rate is put beside it.
        boolean shaped = Stream.of(OptionTable.RAMP, OptionTable.STAGES, OptionTable.BURSTS)
                .anyMatch(row -> run.value(row) != null);
        RunConfig base = (shaped ? builder : rates ? builder.requestRate(1.0) : builder.concurrency(1)).build();
        SweepMode mode = mode(base);
        String tooManyFiles = OpenFileLimit.refusal(widest(mode, base));
        if (tooManyFiles != null) {
            throw new UsageException(tooManyFiles);
        }
        String apiKey = base.target().keySource().read();
        PrintWriter out = spec.commandLine().getOut();
        try (TargetServer target = TargetServer.open(base.target().url(), run.simConfig(), out, false)) {
            Path directory =
                    resume != null ? resume : outputDir != null ? outputDir : defaultDirectory(target.url(), base);
            // Held to the end, as a run holds its directory: a second sweep into it is refused in one line.
            try (OutputDirectory.Claim claim = OutputDirectory.claim(directory, true)) {
                return sweep(base, directory, mode, limits, target.url(), apiKey, out);
            }
        }
    }

    private int sweep(
            RunConfig base,
            Path directory,
            SweepMode mode,
            PercentileSlo limits,
            String target,
            String apiKey,
            PrintWriter out)
            throws Exception {
        AtomicReference<BenchmarkRun> current = new AtomicReference<>();
        String commandLine = RunCommand.commandLine("llmload sweep", run.typedArguments(spec));
        // --live-metrics serves the point running now; each point's counters start at 0 (a counter reset).
        InetSocketAddress metricsAddress = LiveEndpoint.address(run.value(OptionTable.LIVE_METRICS));
        AtomicReference<LiveMetrics> watched = new AtomicReference<>(new LiveMetrics());
        Segment segment = base.client().segment();
        try (MetricsEndpoint endpoint = metricsAddress == null
                ? null
                : LiveEndpoint.open(
                        metricsAddress,
                        () -> watched.get().latest(),
                        segment == null ? null : segment.index(),
                        spec.commandLine().getErr())) {
            int code = sweep(
                    base,
                    directory,
                    mode,
                    limits,
                    target,
                    apiKey,
                    out,
                    commandLine,
                    current,
                    endpoint == null ? null : watched);
            if (endpoint != null) {
                endpoint.awaitFinalScrape();
            }
            return code;
        }
    }

    /** @param watched where each point's live figures go for --live-metrics; null without */
    private int sweep(
            RunConfig base,
            Path directory,
            SweepMode mode,
            PercentileSlo limits,
            String target,
            String apiKey,
            PrintWriter out,
            String commandLine,
            AtomicReference<BenchmarkRun> current,
            AtomicReference<LiveMetrics> watched)
            throws Exception {
        SweepRunner runner;
        try {
            runner = new SweepRunner(
                    base,
                    directory,
                    mode,
                    limits,
                    coolDown,
                    kneeFactor,
                    repeat,
                    config -> {
                        BenchmarkRun run = new BenchmarkRun(
                                config, target, apiKey, commandLine, VersionProvider.version(), r -> {});
                        if (watched != null) {
                            LiveMetrics live = new LiveMetrics();
                            watched.set(live);
                            run.watch(live);
                        }
                        current.set(run);
                        return run.execute();
                    },
                    line -> {
                        out.println(line);
                        out.flush();
                    });
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Signals signals = Signals.install(() -> {
            runner.stop();
            BenchmarkRun run = current.get();
            if (run != null) {
                run.stop();
            }
        });
        out.println("Sweep (" + mode.name() + ") in " + directory);
        out.flush();
        SweepReport report;
        try {
            report = runner.run();
        } catch (IllegalArgumentException e) {
            throw new RunException(e.getMessage(), e);
        } finally {
            signals.uninstall();
        }
        out.print(conclusion(report));
        out.println("Sweep directory: " + directory);
        out.flush();
        return RunCommand.exitCode(signals);
    }

    /**
     * The point that keeps the most requests in flight, for the open-file check before the first
     * point runs: the largest of a concurrency list, or {@code --auto}'s unbounded concurrency. A
     * capacity search's points are not known ahead; a rate sweep's gate is {@code base}'s own.
     */
    private RunConfig widest(SweepMode mode, RunConfig base) {
        int most = switch (mode) {
            case SweepMode.Fixed fixed
            when fixed.axis() == SweepMode.Axis.CONCURRENCY ->
                (int) fixed.values().stream()
                        .mapToDouble(Double::doubleValue)
                        .max()
                        .orElse(1);
            case SweepMode.Auto auto -> auto.unboundedConcurrency();
            default -> 0;
        };
        return most > 0 ? run.builder().concurrency(most).build() : base;
    }

    private SweepMode mode(RunConfig base) {
        try {
            if (concurrency != null) {
                List<Double> values = SweepValues.parse(concurrency);
                if (values.stream().anyMatch(v -> v != Math.rint(v))) {
                    throw new IllegalArgumentException("concurrencies are whole numbers: " + concurrency);
                }
                return new SweepMode.Fixed(SweepMode.Axis.CONCURRENCY, values);
            }
            if (requestRate != null) {
                return new SweepMode.Fixed(SweepMode.Axis.RATE, SweepValues.parse(requestRate));
            }
            if (auto) {
                if (unboundedConcurrency != null && unboundedConcurrency < 1) {
                    throw new IllegalArgumentException("--unbounded-concurrency must be at least 1");
                }
                Long requests = base.bounds().numRequests();
                long all = requests == null ? 512 : Math.min(512, requests);
                return new SweepMode.Auto(points, unboundedConcurrency == null ? (int) all : unboundedConcurrency);
            }
            SweepMode.Axis axis = switch (by) {
                case "rate" -> SweepMode.Axis.RATE;
                case "concurrency" -> SweepMode.Axis.CONCURRENCY;
                default -> throw new IllegalArgumentException("--by: expected rate or concurrency, got '" + by + "'");
            };
            if (!(start > 0)) {
                throw new IllegalArgumentException("--start must be positive, got " + start);
            }
            return new SweepMode.Capacity(axis, start, CapacitySearch.Precision.parse(precision), maxPoints);
        } catch (IllegalArgumentException e) {
            throw new UsageException(
                    e.getMessage().startsWith("--") ? e.getMessage() : optionOf() + ": " + e.getMessage());
        }
    }

    private String optionOf() {
        return concurrency != null
                ? "--concurrency"
                : requestRate != null ? "--request-rate" : auto ? "--points" : "--find-capacity";
    }

    /** {@code results/<timestamp>-sweep-<target>}, stamped and named as a run's default directory is. */
    private static Path defaultDirectory(String target, RunConfig base) {
        String runName =
                BenchmarkRun.defaultOutputDir(target, base.load()).getFileName().toString();
        String stampAndTarget =
                runName.substring(0, runName.length() - base.load().label().length() - 1);
        String stamp = stampAndTarget.substring(0, "yyyyMMdd-HHmmss".length());
        return Path.of("results", stamp + "-sweep" + stampAndTarget.substring(stamp.length()));
    }

    private static String conclusion(SweepReport report) {
        StringBuilder text = new StringBuilder();
        if (report.interrupted()) {
            text.append("Sweep interrupted: ")
                    .append(report.points().size())
                    .append(" finished points kept; continue with --resume.\n");
        }
        SweepReport.Knee knee = report.knee();
        text.append(
                knee == null
                        ? "Knee: none (throughput never stopped growing while p99 TTFT or E2E rose --knee-factor times, no error rise).\n"
                        : String.format(
                                Locale.ROOT,
                                "Knee: %s at %.2f req/s; at %s %s.%n",
                                knee.directory(),
                                knee.requestThroughput(),
                                knee.risesAt(),
                                knee.reason()));
        CapacitySearch.Result capacity = report.capacity();
        if (capacity != null) {
            String unit = report.axis().equals("rate") ? " req/s" : " in flight";
            text.append(
                    capacity.capacity() == null
                            ? "Capacity: none found"
                            : "Capacity: " + PercentileSlo.format(capacity.capacity()) + unit + " meets "
                                    + report.slo());
            text.append(" (").append(capacity.reason()).append(")\n");
            if (report.repeats() > 1) {
                text.append("Each point ran ")
                        .append(report.repeats())
                        .append(" times: a pass counts only when each --slo "
                                + "limit's 95% interval across its runs lies within the limit.\n");
            }
            if (capacity.lowestFailure() != null) {
                text.append("Lowest load that failed: ")
                        .append(PercentileSlo.format(capacity.lowestFailure()))
                        .append(unit)
                        .append(", limited by ")
                        .append(capacity.limitingMetric())
                        .append(" (first to fail: ")
                        .append(PercentileSlo.format(capacity.firstFailure()))
                        .append(unit)
                        .append(")\n");
            }
        }
        return text.toString();
    }
}
