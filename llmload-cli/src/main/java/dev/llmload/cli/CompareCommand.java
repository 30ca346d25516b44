package dev.llmload.cli;

import dev.llmload.compare.Comparison;
import dev.llmload.compare.FailIf;
import dev.llmload.compare.Verdict;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunGroup;
import dev.llmload.report.html.HtmlReport;
import dev.llmload.report.html.LabeledRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code llmload compare}: finished runs side by side against the first, with bootstrap intervals
 * of the differences; refuses runs that are not like for like unless told otherwise.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        usageHelpWidth = 110,
        description = {
            "Compare finished runs side by side against the first (the baseline) and write a comparison directory.",
            "A sweep directory stands for its points. Two repeats directories (run --repeat K) are compared across runs:",
            "a Welch interval of the difference of the per-run means; otherwise the interval covers sampling only.",
            "Every --fail-if limit is judged PASS, REGRESSION or NOT JUDGED (with why, e.g. too few samples for p99).",
            "Exit codes: 0 compared, 2 bad usage or runs not like for like, 3 a --fail-if threshold was crossed by a",
            "significant change, 5 a limit not judged with --fail-if-unjudged. See docs/sweep-and-compare.md."
        })
public final class CompareCommand implements Callable<Integer> {

    /** The exit code when {@code --fail-if} finds a regression. */
    static final int EXIT_REGRESSION = 3;

    /** The exit code when {@code --fail-if-unjudged} is given and a limit could not be judged (and none regressed). */
    static final int EXIT_UNJUDGED = 5;

    private static final String DEFAULT_CONFIDENCE = "0.95";
    private static final String DEFAULT_RESAMPLES = "1000";
    private static final String DEFAULT_SEED = "0";
    /** Resamples, confidence and seed of the intervals when not told otherwise; also {@code run --fail-if}'s. */
    static final Comparison.Settings DEFAULT_SETTINGS = new Comparison.Settings(
            Integer.parseInt(DEFAULT_RESAMPLES), Double.parseDouble(DEFAULT_CONFIDENCE), Long.parseLong(DEFAULT_SEED));

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(
            paramLabel = "RUN_OR_SWEEP",
            arity = "1..*",
            description = "Run, repeats or sweep directories; the first is the baseline.")
    List<Path> inputs = new ArrayList<>();

    @Option(
            names = "--allow-mismatch",
            description = "Compare runs that differ in prompts, requested lengths, load, API or streaming; "
                    + "the differences head the output.")
    boolean allowMismatch;

    @Option(
            names = "--fail-if",
            paramLabel = "THRESHOLDS",
            description = "Exit 3 when a significant change crosses a threshold, e.g. p99_ttft:+10%%,"
                    + "output_token_throughput:-5%% (+ a rise, - a fall; without %% in the metric's unit).")
    String failIf;

    @Option(
            names = "--fail-if-unjudged",
            description = "Exit 5 when a --fail-if limit cannot be judged (a percentile on too few samples, a value a "
                    + "run lacks) and none regressed; without it such a limit is printed NOT JUDGED and passes.")
    boolean failIfUnjudged;

    @Option(
            names = "--confidence",
            paramLabel = "C",
            defaultValue = DEFAULT_CONFIDENCE,
            description = "Confidence of the intervals. Default: ${DEFAULT-VALUE}.")
    double confidence;

    @Option(
            names = "--resamples",
            paramLabel = "N",
            defaultValue = DEFAULT_RESAMPLES,
            description = "Bootstrap resamples per interval. Default: ${DEFAULT-VALUE}.")
    int resamples;

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = DEFAULT_SEED,
            description = "Seeds the resampling. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(
            names = "--output-dir",
            paramLabel = "DIR",
            description = "Comparison directory. Default: results/<timestamp>-compare.")
    Path outputDir;

    @Override
    public Integer call() throws IOException {
        if (!(confidence > 0 && confidence < 1)) {
            throw new UsageException("--confidence must be between 0 and 1, got " + confidence);
        }
        if (resamples < 100) {
            throw new UsageException("--resamples must be at least 100, got " + resamples);
        }
        if (failIfUnjudged && failIf == null) {
            throw new UsageException("--fail-if-unjudged needs --fail-if: it says what a limit not judged does");
        }
        FailIf thresholds;
        try {
            thresholds = failIf == null ? null : FailIf.parse(failIf);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--fail-if: " + e.getMessage());
        }
        List<List<RunGroup>> groups = new ArrayList<>();
        for (Path input : inputs) {
            try {
                groups.add(RunGroup.load(input));
            } catch (IOException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (groups.size() == 1 && groups.getFirst().size() == 1) {
            throw new UsageException("give at least two runs (or a sweep, or two repeats directories) to compare");
        }
        Comparison comparison =
                Comparison.ofGroups(groups, new Comparison.Settings(resamples, confidence, seed), thresholds);
        if (!comparison.mismatches().isEmpty() && !allowMismatch) {
            throw new UsageException("the runs are not like for like (give --allow-mismatch to compare anyway):\n  "
                    + String.join("\n  ", comparison.mismatches()));
        }
        Path directory = outputDir != null ? outputDir : defaultDirectory();
        Files.createDirectories(directory);
        ReportFiles.writeAtomically(
                directory.resolve(Comparison.FILE_NAME), ReportFiles.JSON.writeValueAsString(comparison) + "\n");
        ReportFiles.writeAtomically(directory.resolve(Comparison.CSV_FILE_NAME), comparison.csv());
        List<LabeledRun> runs = groups.stream()
                .flatMap(List::stream)
                .flatMap(group -> group.runs().stream())
                .map(run -> new LabeledRun(run.label(), run.report(), run.records()))
                .toList();
        ReportFiles.writeAtomically(
                directory.resolve(HtmlReport.FILE_NAME),
                HtmlReport.forComparison(runs, ReportFiles.JSON.valueToTree(comparison)));
        PrintWriter out = spec.commandLine().getOut();
        out.print(comparison.render());
        out.println("Comparison directory: " + directory);
        out.flush();
        return exitCode(comparison, failIfUnjudged);
    }

    /**
     * The gate's exit code: {@link #EXIT_REGRESSION} when a limit regressed, else
     * {@link #EXIT_UNJUDGED} when one was not judged and {@code failIfUnjudged}, else 0. Also
     * {@code run --baseline --fail-if}'s.
     */
    static int exitCode(Comparison comparison, boolean failIfUnjudged) {
        if (!comparison.regressions().isEmpty()) {
            return EXIT_REGRESSION;
        }
        boolean unjudged = comparison.verdicts().stream().anyMatch(v -> v.outcome() == Verdict.Outcome.NOT_JUDGED);
        return unjudged && failIfUnjudged ? EXIT_UNJUDGED : 0;
    }

    private static Path defaultDirectory() {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(ZoneId.systemDefault())
                .format(Instant.now());
        return Path.of("results", stamp + "-compare");
    }
}
