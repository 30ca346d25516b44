package dev.llmload.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import dev.llmload.cli.console.ConsoleSummary;
import dev.llmload.compare.Comparison;
import dev.llmload.compare.FailIf;
import dev.llmload.compare.Repeats;
import dev.llmload.config.OptionTable;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Target;
import dev.llmload.live.LiveMetrics;
import dev.llmload.live.MetricsEndpoint;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.metrics.RunResults;
import dev.llmload.protocol.RequestExtras;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunDirectory;
import dev.llmload.report.RunReport;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.OutputDirectory;
import dev.llmload.run.RunException;
import dev.llmload.segment.Segment;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code llmload run}: benchmark one load point; without {@code --url}, of the embedded simulator. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        usageHelpWidth = 110,
        modelTransformer = RunCommand.Options.class,
        description = {
            "Benchmark one load point of an OpenAI-compatible server and write a run directory.",
            "Without --url the built-in simulator is started on a free loopback port and benchmarked.",
            "The API key is read from the environment (LLMLOAD_API_KEY, else OPENAI_API_KEY) or --api-key-file;",
            "it is never written to any file or log.",
            "Exit codes: 0 a finished run (failed requests are results), 1 could not start, 2 bad usage,",
            "3 a --fail-if threshold crossed against --baseline, 4 every request failed, the error rate passed",
            "--max-error-rate or a percentile --slo limit was missed, 130/143 interrupted. See docs/cli.md."
        })
public final class RunCommand implements Callable<Integer> {

    /** The exit code of a run whose every measured request failed, or whose error rate passed {@code --max-error-rate}. */
    static final int EXIT_FAILED_RUN = 4;
    /** The exit code after Ctrl-C (SIGINT), as shells expect. */
    static final int EXIT_INTERRUPTED = 130;
    /** The exit code after SIGTERM. */
    static final int EXIT_TERMINATED = 143;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--repeat",
            paramLabel = "K",
            defaultValue = "1",
            description = "Run the configuration K times, into DIR/repeat-1 .. repeat-K, and write DIR/repeats.json: "
                    + "each key metric's mean with its 95%% interval across the runs, and the range a further run is "
                    + "expected in. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(
            names = "--quiet",
            description = "No progress line and no summary: standard output gets only the run directory's line (or, "
                    + "with --json, the results). Errors and verdicts still go to standard error.")
    boolean quiet;

    @Option(
            names = "--json",
            description = "Standard output gets only the results object of report.json (with --repeat, repeats.json), "
                    + "for scripts; the summary goes to standard error instead (unless --quiet).")
    boolean json;

    @Option(
            names = "--max-error-rate",
            paramLabel = "R",
            description =
                    "Exit 4 when more than this share (0 to 1) of the measured requests failed. A run whose every "
                            + "request failed exits 4 without it.")
    Double maxErrorRate;

    @Option(
            names = "--fail-if",
            paramLabel = "THRESHOLDS",
            description = "Exit 3 when a significant change against --baseline crosses a threshold, as llmload compare "
                    + "--fail-if: e.g. p99_ttft:+10%%,output_token_throughput:-5%%.")
    String failIf;

    @Option(
            names = "--fail-if-unjudged",
            description = "Exit 5 when a --fail-if limit cannot be judged (a percentile on too few samples, a value a "
                    + "run lacks) and none regressed; without it such a limit is printed NOT JUDGED and passes.")
    boolean failIfUnjudged;

    @Option(
            names = "--baseline",
            paramLabel = "RUN_DIR",
            description = "A finished run (its directory) that --fail-if holds this run against.")
    Path baseline;

    @Option(
            names = "--overwrite",
            description = "Write into a --output-dir that already holds files (those of the same names are replaced).")
    boolean overwrite;

    /** Every option of a run ({@link dev.llmload.config.OptionTable}), shared with {@code llmload sweep}. */
    final RunOptions options = new RunOptions();

    /** Adds the run options to the command, the points included. */
    static final class Options implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec spec) {
            return RunOptions.addTo(spec, ((RunCommand) spec.userObject()).options, true);
        }
    }

    /** vllm bench serve's spellings that translate onto the options above (docs/coming-from.md). */
    @CommandLine.Mixin
    VllmOptions vllm;

    @Override
    public Integer call() throws Exception {
        if (options.configPending()) {
            return options.withConfig(spec, RunCommand::new, command -> command.options, true)
                    .call();
        }
        RunConfig config = config();
        if (repeat < 1) {
            throw new UsageException("--repeat must be at least 1, got " + repeat);
        }
        String tooManyFiles = OpenFileLimit.refusal(config);
        if (tooManyFiles != null) {
            throw new UsageException(tooManyFiles);
        }
        Verdict verdict = verdict();
        ConsoleSummary.Latencies latencies = vllm.latencies();
        if (config.output().dir() != null) {
            String refusal = OutputDirectory.refusal(config.output().dir(), overwrite);
            if (refusal != null) {
                throw new UsageException(refusal);
            }
        }
        // Held to the end: a second run into the same directory is refused, however close behind.
        try (OutputDirectory.Claim claim = config.output().dir() == null
                ? null
                : OutputDirectory.claim(config.output().dir(), overwrite)) {
            return claimed(config, verdict, latencies);
        }
    }

    /** The run(s), once the directory is this process's. */
    private int claimed(RunConfig config, Verdict verdict, ConsoleSummary.Latencies latencies) throws Exception {
        String apiKey = config.target().keySource().read();
        warnOfPlainTextKey(config.target().url(), apiKey);
        // What a person reads; with --json or --quiet, standard output keeps only what a script reads.
        PrintWriter out = quiet
                ? new PrintWriter(Writer.nullWriter())
                : json ? spec.commandLine().getErr() : spec.commandLine().getOut();
        if (config.scenario() != null) {
            out.println("Scenario " + config.scenario() + ": look first at "
                    + Scenarios.byName(config.scenario()).leadsWith() + ".");
        }
        try (TargetServer target = TargetServer.open(config.target().url(), options.simConfig(), out, true)) {
            if (config.output().dir() == null) {
                config = config.withOutputDir(
                        OutputDirectory.claimUnique(BenchmarkRun.defaultOutputDir(target.url(), config.load())));
            }
            return repeat == 1
                    ? execute(config, target.url(), apiKey, out, verdict, latencies)
                            .code()
                    : repeated(config, target.url(), apiKey, out, verdict, latencies);
        }
    }

    /** {@code --repeat K}: the runs one after the other, then what they say together. */
    private int repeated(
            RunConfig config,
            String target,
            String apiKey,
            PrintWriter out,
            Verdict verdict,
            ConsoleSummary.Latencies latencies)
            throws Exception {
        Path base = config.output().dir();
        List<String> runs = new ArrayList<>();
        List<RunReport> reports = new ArrayList<>();
        for (int i = 1; i <= repeat; i++) {
            Path dir = base.resolve("repeat-" + i);
            out.println("Repeat " + i + " of " + repeat + ":");
            Outcome outcome = execute(config.withOutputDir(dir), target, apiKey, out, verdict, latencies);
            if (outcome.code() != 0) {
                return outcome.code();
            }
            runs.add(base.relativize(dir).toString());
            reports.add(outcome.report());
        }
        Repeats summary = Repeats.of(runs, reports);
        ReportFiles.writeAtomically(
                base.resolve(Repeats.FILE_NAME), ReportFiles.JSON.writeValueAsString(summary) + "\n");
        out.print(summary.render());
        out.println("Repeats: " + base.resolve(Repeats.FILE_NAME));
        out.flush();
        forScripts(summary, base);
        return 0;
    }

    /** A finished run's report and the exit code it calls for. */
    private record Outcome(int code, RunReport report) {}

    /** The run these options describe; {@code --config} and {@code --scenario} must have been merged in. */
    RunConfig config() {
        RunConfig.Builder builder = options.builder();
        vllm.applyTo(builder, options, options.value(OptionTable.SLO));
        return builder.build();
    }

    /**
     * What makes a finished run fail for CI: the share of failed requests allowed, and the
     * thresholds against a baseline run. Checked before the run, so a mistake costs no run.
     *
     * @param thresholds {@code --fail-if}; null without
     * @param baseline   the baseline's runs, loaded; null without
     */
    private record Verdict(
            Double maxErrorRate, FailIf thresholds, List<RunDirectory> baseline, boolean failIfUnjudged) {}

    private Verdict verdict() {
        if (maxErrorRate != null && !(maxErrorRate >= 0 && maxErrorRate <= 1)) {
            throw new UsageException("--max-error-rate is a share from 0 to 1, got " + maxErrorRate);
        }
        if ((failIf == null) != (baseline == null)) {
            throw new UsageException(
                    "--fail-if and --baseline go together: the thresholds hold this run against a " + "baseline run");
        }
        if (failIfUnjudged && failIf == null) {
            throw new UsageException(
                    "--fail-if-unjudged needs --fail-if and --baseline: it says what a limit not " + "judged does");
        }
        if (failIf == null) {
            return new Verdict(maxErrorRate, null, null, false);
        }
        FailIf thresholds;
        try {
            thresholds = FailIf.parse(failIf);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--fail-if: " + e.getMessage());
        }
        try {
            List<RunDirectory> runs = RunDirectory.load(baseline);
            if (runs.size() != 1) {
                throw new UsageException(
                        "--baseline: give one run's directory, not a sweep's or a repeats directory's");
            }
            return new Verdict(maxErrorRate, thresholds, runs, failIfUnjudged);
        } catch (IOException e) {
            throw new UsageException("--baseline: " + e.getMessage());
        }
    }

    /** One run, its summary printed; with {@code --repeat}, each repeat is judged on its own. */
    private Outcome execute(
            RunConfig config,
            String target,
            String apiKey,
            PrintWriter out,
            Verdict verdict,
            ConsoleSummary.Latencies latencies)
            throws Exception {
        Progress progress = new Progress(
                quiet
                        ? new PrintWriter(Writer.nullWriter())
                        : spec.commandLine().getErr(),
                config.bounds().numRequests(),
                config.bounds().duration());
        BenchmarkRun run = new BenchmarkRun(
                config,
                target,
                apiKey,
                commandLine("llmload run", options.typedArguments(spec)),
                VersionProvider.version(),
                progress::record);
        // On a terminal the live view takes the progress line's place; --live-metrics serves the same figures.
        boolean view = !quiet && !options.value(OptionTable.NO_LIVE) && Progress.onTerminal();
        InetSocketAddress metricsAddress = LiveEndpoint.address(options.value(OptionTable.LIVE_METRICS));
        LiveMetrics live = view || metricsAddress != null ? new LiveMetrics() : null;
        if (view) {
            live.addListener(
                    new LiveView(spec.commandLine().getErr(), config.bounds().numRequests())::draw);
        }
        if (live != null) {
            run.watch(live);
        }
        BenchmarkRun.Result result;
        Segment segment = config.client().segment();
        try (MetricsEndpoint endpoint = metricsAddress == null
                ? null
                : LiveEndpoint.open(
                        metricsAddress,
                        live::latest,
                        segment == null ? null : segment.index(),
                        spec.commandLine().getErr())) {
            Signals signals = Signals.install(run::stop);
            if (!view) {
                progress.start(run::inFlight);
            }
            try {
                try {
                    result = run.execute();
                } finally {
                    if (!view) {
                        progress.stop();
                    }
                    signals.uninstall();
                }
            } catch (RunException e) {
                // The report files could not be written (a full disk): what they say is printed all the same.
                if (e.unwrittenReport().isPresent()) {
                    out.print(ConsoleSummary.render(e.unwrittenReport().get(), latencies));
                    out.flush();
                }
                throw e;
            }
            Outcome outcome = finished(config, result, out, progress, verdict, latencies, signals);
            if (endpoint != null) {
                // The final counts stay up for a scraper that comes round within the wait.
                endpoint.awaitFinalScrape();
            }
            return outcome;
        }
    }

    /** The finished run's summary and verdict. */
    private Outcome finished(
            RunConfig config,
            BenchmarkRun.Result result,
            PrintWriter out,
            Progress progress,
            Verdict verdict,
            ConsoleSummary.Latencies latencies,
            Signals signals)
            throws IOException {
        out.print(ConsoleSummary.render(result.report(), latencies));
        if (config.bounds().warmupTime() != null) {
            // A warm-up by time covers as many requests as the load sent in it: say how many.
            long ms = config.bounds().warmupTime().toMillis();
            out.println("Warm-up: " + progress.warmups() + " requests intended to start in the first "
                    + (ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms") + ", left out of the statistics");
        }
        out.println("Run directory: " + result.directory());
        out.flush();
        if (repeat == 1) {
            forScripts(result.report().results(), result.directory());
        }
        int interrupted = exitCode(signals);
        return new Outcome(interrupted != 0 ? interrupted : judge(config, result, verdict, out), result.report());
    }

    /**
     * What {@code --json} and {@code --quiet} put on standard output: the figures as JSON, or the
     * run directory's line, and nothing else.
     */
    private void forScripts(Object figures, Path runDirectory) throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        if (json) {
            // One line, so that a script reading lines gets the whole object at once.
            stdout.println(ReportFiles.JSON
                    .writer()
                    .without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(figures));
        } else if (quiet) {
            stdout.println("Run directory: " + runDirectory);
        } else {
            return;
        }
        stdout.flush();
    }

    /** 0, or the exit code of the first verdict the finished run fails, with its one line on standard error. */
    private int judge(RunConfig config, BenchmarkRun.Result result, Verdict verdict, PrintWriter out)
            throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        RunResults results = result.report().results();
        long attempted = results.requests().attempted();
        long failed = results.requests().failed();
        if (attempted > 0 && failed == attempted) {
            err.println("llmload: every request failed (" + failed + " of " + attempted + "); see the errors above");
            return EXIT_FAILED_RUN;
        }
        if (verdict.maxErrorRate() != null
                && results.errorRate() != null
                && results.errorRate() > verdict.maxErrorRate()) {
            err.println(String.format(
                    Locale.ROOT,
                    "llmload: the error rate %.4f (%d of %d requests failed) is above " + "--max-error-rate %s",
                    results.errorRate(),
                    failed,
                    attempted,
                    verdict.maxErrorRate()));
            return EXIT_FAILED_RUN;
        }
        // Percentile limits in --slo judge the run as a sweep judges each point.
        PercentileSlo percentiles = config.slo() == null ? null : config.slo().percentiles();
        List<PercentileSlo.Violation> missed = percentiles == null ? List.of() : percentiles.violations(results);
        if (!missed.isEmpty()) {
            err.println("llmload: the run misses --slo: "
                    + missed.stream().map(Object::toString).collect(java.util.stream.Collectors.joining("; ")));
            return EXIT_FAILED_RUN;
        }
        if (verdict.thresholds() == null) {
            return 0;
        }
        RunDirectory run = new RunDirectory(
                result.directory().getFileName().toString(),
                result.directory(),
                result.report(),
                result.journaledRecords());
        Comparison comparison = Comparison.of(
                List.of(verdict.baseline(), List.of(run)), CompareCommand.DEFAULT_SETTINGS, verdict.thresholds());
        out.print(comparison.render());
        out.flush();
        if (!comparison.mismatches().isEmpty()) {
            err.println("llmload: --baseline is not like for like with this run: "
                    + String.join("; ", comparison.mismatches()));
            return Main.EXIT_USAGE;
        }
        if (quiet) {
            // Every limit's verdict is said, also when standard output keeps only the run directory.
            comparison.verdicts().forEach(v -> err.println("llmload: --fail-if: " + v.line()));
        }
        int exit = CompareCommand.exitCode(comparison, verdict.failIfUnjudged());
        if (exit == CompareCommand.EXIT_REGRESSION) {
            err.println("llmload: --fail-if: " + String.join("; ", comparison.regressions()));
        } else if (exit == CompareCommand.EXIT_UNJUDGED) {
            err.println("llmload: --fail-if-unjudged: a limit was not judged; see NOT JUDGED above");
        }
        return exit;
    }

    /** A key sent over plain http to another machine can be read on the way: say so, once, before any request. */
    private void warnOfPlainTextKey(Target.ServerUrl url, String apiKey) {
        if (apiKey == null || url == null || !url.text().regionMatches(true, 0, "http://", 0, 7)) {
            return;
        }
        String host = url.endpoint().host();
        if (!isLoopback(host)) {
            spec.commandLine()
                    .getErr()
                    .println("llmload: warning: the API key goes to " + host
                            + " over plain http, readable on the way; use https:// for a remote server");
        }
    }

    /** Loopback by name or literal address; no name is looked up (that could hang before the run). */
    private static boolean isLoopback(String host) {
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost") || bare.toLowerCase(Locale.ROOT).endsWith(".localhost")) {
            return true;
        }
        if (!bare.matches("[0-9.]+|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*")) {
            return false;
        }
        try {
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** 0, or the code a shell expects after the signal that stopped the command. */
    static int exitCode(Signals signals) {
        return switch (signals.received()) {
            case "INT" -> EXIT_INTERRUPTED;
            case "TERM" -> EXIT_TERMINATED;
            default -> 0;
        };
    }

    /**
     * {@code command} and its arguments as a shell would take them back, for reports; a
     * {@code --header} that holds a credential shows its name only.
     */
    static String commandLine(String command, List<String> args) {
        StringBuilder text = new StringBuilder(command);
        boolean headerValue = false;
        for (String given : args) {
            String arg = given;
            if (headerValue) {
                arg = RequestExtras.redactArgument(arg);
            } else if (arg.startsWith("--header=")) {
                arg = "--header=" + RequestExtras.redactArgument(arg.substring("--header=".length()));
            }
            headerValue = given.equals("--header");
            text.append(' ').append(arg.matches("[A-Za-z0-9_./:=,@+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return text.toString();
    }
}
