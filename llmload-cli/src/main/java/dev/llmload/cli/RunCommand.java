package dev.llmload.cli;

import dev.llmload.compare.Repeats;
import dev.llmload.config.RunConfig;
import dev.llmload.config.Target;
import dev.llmload.report.ConsoleSummary;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.OutputDirectory;
import java.io.PrintWriter;
import java.net.InetAddress;
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

    @Option(names = "--concurrency", paramLabel = "N",
            description = "Closed loop: keep N requests in flight. Default: 16 when --request-rate is not given.")
    Integer concurrency;

    @Option(names = "--request-rate", paramLabel = "R",
            description = "Open loop: send R requests (with --sessions: start R sessions) per second on a precomputed "
                    + "schedule, whatever the server does.")
    Double requestRate;

    @Option(names = "--slo", paramLabel = "LIMITS",
            description = "Per-request limits in ms for goodput, any of ttft, tpot, e2e: e.g. ttft:500,tpot:50,e2e:3000. "
                    + "A request meets the SLO when it succeeded within every limit.")
    String slo;

    @Option(names = "--output-dir", paramLabel = "DIR",
            description = "Run directory. Default: results/<timestamp>-<target>-<load>.")
    Path outputDir;

    @Option(names = "--repeat", paramLabel = "K", defaultValue = "1",
            description = "Run the configuration K times, into DIR/repeat-1 .. repeat-K, and write DIR/repeats.json: "
                    + "each key metric's mean with its 95%% interval across the runs, and the range a further run is "
                    + "expected in. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(names = "--overwrite",
            description = "Write into a --output-dir that already holds files (those of the same names are replaced).")
    boolean overwrite;

    /** Every other option of a run, shared with {@code llmload sweep}. */
    @CommandLine.Mixin
    RunOptions options;

    @Override
    public Integer call() throws Exception {
        if (options.configPending()) {
            return options.withConfig(spec, RunCommand::new, command -> command.options, true).call();
        }
        RunConfig config = config();
        if (repeat < 1) {
            throw new UsageException("--repeat must be at least 1, got " + repeat);
        }
        String tooManyFiles = OpenFileLimit.refusal(config);
        if (tooManyFiles != null) {
            throw new UsageException(tooManyFiles);
        }
        if (config.output().dir() != null) {
            String refusal = OutputDirectory.refusal(config.output().dir(), overwrite);
            if (refusal != null) {
                throw new UsageException(refusal);
            }
        }
        String apiKey = config.target().keySource().read();
        warnOfPlainTextKey(config.target().url(), apiKey);
        PrintWriter out = spec.commandLine().getOut();
        if (config.scenario() != null) {
            out.println("Scenario " + config.scenario() + ": look first at "
                    + Scenarios.byName(config.scenario()).leadsWith() + ".");
        }
        try (TargetServer target = TargetServer.open(config.target().url(), options.simConfig, out, true)) {
            if (config.output().dir() == null) {
                config = config.withOutputDir(
                        OutputDirectory.claimUnique(BenchmarkRun.defaultOutputDir(target.url(), config.load())));
            }
            return repeat == 1 ? execute(config, target.url(), apiKey, out).code()
                    : repeated(config, target.url(), apiKey, out);
        }
    }

    /** {@code --repeat K}: the runs one after the other, then what they say together. */
    private int repeated(RunConfig config, String target, String apiKey, PrintWriter out) throws Exception {
        Path base = config.output().dir();
        List<String> runs = new ArrayList<>();
        List<RunReport> reports = new ArrayList<>();
        for (int i = 1; i <= repeat; i++) {
            Path dir = base.resolve("repeat-" + i);
            out.println("Repeat " + i + " of " + repeat + ":");
            Outcome outcome = execute(config.withOutputDir(dir), target, apiKey, out);
            if (outcome.code() != 0) {
                return outcome.code();
            }
            runs.add(base.relativize(dir).toString());
            reports.add(outcome.report());
        }
        Repeats summary = Repeats.of(runs, reports);
        ReportFiles.writeAtomically(base.resolve(Repeats.FILE_NAME), ReportFiles.JSON.writeValueAsString(summary) + "\n");
        out.print(summary.render());
        out.println("Repeats: " + base.resolve(Repeats.FILE_NAME));
        out.flush();
        return 0;
    }

    /** A finished run's report and the exit code it calls for. */
    private record Outcome(int code, RunReport report) {}

    /** The run these options describe; {@code --config} and {@code --scenario} must have been merged in. */
    RunConfig config() {
        return options.builder().concurrency(concurrency).requestRate(requestRate).slo(slo).outputDir(outputDir)
                .build();
    }

    private Outcome execute(RunConfig config, String target, String apiKey, PrintWriter out) throws Exception {
        Progress progress = new Progress(spec.commandLine().getErr(), config.bounds().numRequests());
        BenchmarkRun run = new BenchmarkRun(config, target, apiKey,
                commandLine("llmload run", options.typedArguments(spec)), VersionProvider.version(), progress::record);
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
        return new Outcome(exitCode(signals), result.report());
    }

    /** A key sent over plain http to another machine can be read on the way: say so, once, before any request. */
    private void warnOfPlainTextKey(Target.ServerUrl url, String apiKey) {
        if (apiKey == null || url == null || !url.text().regionMatches(true, 0, "http://", 0, 7)) {
            return;
        }
        String host = url.endpoint().host();
        if (!isLoopback(host)) {
            spec.commandLine().getErr().println("llmload: warning: the API key goes to " + host
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

    /** {@code command} and its arguments as a shell would take them back, for reports. */
    static String commandLine(String command, List<String> args) {
        StringBuilder text = new StringBuilder(command);
        for (String arg : args) {
            text.append(' ').append(arg.matches("[A-Za-z0-9_./:=,@+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return text.toString();
    }
}
