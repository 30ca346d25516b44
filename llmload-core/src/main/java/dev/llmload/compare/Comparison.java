package dev.llmload.compare;

import dev.llmload.config.Load;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.report.RunDirectory;
import dev.llmload.report.RunGroup;
import dev.llmload.stats.Percentile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code comparison.json}: runs side by side, each against its baseline. The baseline runs are
 * those of the first argument (one run, a repeats directory, or a sweep's points); each later run
 * is set against the baseline run of the same load, else the first baseline run. With a single
 * argument, its first run is the baseline of the others. When both sides of a pair are the repeats
 * of one configuration ({@link RunGroup#repeated}), the pair is compared across runs: each
 * metric's per-run values, Welch's interval of the difference of their means
 * ({@link Repeats#welch}), which sees what differs from run to run; otherwise run against run,
 * by the bootstrap over requests, whose interval covers sampling and each run's own course only
 * (a repeats directory against a single run stands for its runs one by one).
 *
 * @param runs        every run's label, baselines first
 * @param mismatches  what makes pairs unfair, {@code run vs baseline: key: a vs b}; empty when fair
 * @param confidence  of the intervals, e.g. 0.95
 * @param resamples   bootstrap resamples per interval
 * @param pairs       one per compared run
 * @param failIf      the thresholds given, as written; empty for none
 * @param regressions the thresholds crossed, {@code run: metric ...}
 * @param verdicts    every threshold's {@link Verdict} on every pair, in the order given: PASS,
 *                    REGRESSION or NOT JUDGED with why; empty without thresholds
 */
public record Comparison(
        List<String> runs,
        List<String> mismatches,
        double confidence,
        int resamples,
        long seed,
        List<Pair> pairs,
        List<String> failIf,
        List<String> regressions,
        List<Verdict> verdicts) {

    public static final String FILE_NAME = "comparison.json";
    public static final String CSV_FILE_NAME = "comparison.csv";

    /** How the intervals are computed. */
    public record Settings(int resamples, double confidence, long seed) {}

    /** The interval of a pair: across runs (Welch, repeats on both sides), or bootstrap over one run's requests. */
    public static final String RUNS = "runs";

    public static final String SAMPLING = "sampling";

    /**
     * One run, or one set of repeats, against its baseline.
     *
     * @param interval     {@link #RUNS} or {@link #SAMPLING}: what the differences' intervals are
     * @param baselineRuns runs behind the baseline's values (their means for {@link #RUNS}); 1 otherwise
     * @param runRuns      the same for the run
     */
    public record Pair(
            String baseline, String run, String interval, int baselineRuns, int runRuns, List<Difference> metrics) {}

    /**
     * One metric of a pair. {@code ciLow}/{@code ciHigh} bound the difference (run − baseline): the
     * union of the request bootstrap's interval ({@code samplingCiLow}/{@code samplingCiHigh}, which
     * covers sampling only) and the block bootstrap's, which also covers how much each run varied
     * over its own course. Null without journals or for throughputs. Across runs, {@code baseline}
     * and {@code value} are means over the runs, {@code ciLow}/{@code ciHigh} Welch's interval of their
     * difference (throughputs included; null with fewer than 2 values a side) and the sampling
     * interval null. {@code significant} is null
     * when there is no interval, and false when {@code fewSamples}: a percentile resting on fewer
     * samples than it needs (p99: 100) in either run, whose bootstrap interval is too narrow to trust.
     */
    public record Difference(
            String metric,
            Double baseline,
            Double value,
            Double difference,
            Double relativeDifference,
            Double ciLow,
            Double ciHigh,
            Boolean significant,
            boolean fewSamples,
            Double samplingCiLow,
            Double samplingCiHigh) {

        /**
         * Whether this difference crosses {@code threshold}: for a metric with an interval, the
         * whole interval lies beyond it (the change is larger than allowed at the interval's
         * confidence, not merely different from 0); otherwise the measured change does.
         */
        Verdict judge(String run, FailIf.Threshold threshold) {
            String limit = threshold.toString();
            String change = format(baseline) + " -> " + format(value) + " (" + percent(relativeDifference) + ")";
            if (fewSamples) {
                Percentile percentile = ComparedMetric.byKey(metric).percentile();
                return new Verdict(
                        run,
                        limit,
                        Verdict.Outcome.NOT_JUDGED,
                        "too few samples for " + percentile.key() + " (it needs " + percentile.minimumConfidentCount()
                                + " in each run); measured " + change);
            }
            if (baseline == null || value == null) {
                return new Verdict(
                        run,
                        limit,
                        Verdict.Outcome.NOT_JUDGED,
                        "no value in " + (baseline == null ? "the baseline" : "the run")
                                + " (nothing of it was measured)");
            }
            if (threshold.relative() && relativeDifference == null) {
                return new Verdict(
                        run,
                        limit,
                        Verdict.Outcome.NOT_JUDGED,
                        "the baseline is 0, so a change in % is undefined; give the limit without %");
            }
            String interval = ciLow == null
                    ? ""
                    : ", interval [" + format(ciLow) + ", " + format(ciHigh) + "]"
                            + (Boolean.FALSE.equals(significant) ? ", not significant" : "");
            return new Verdict(
                    run,
                    limit,
                    crosses(threshold) ? Verdict.Outcome.REGRESSION : Verdict.Outcome.PASS,
                    change + interval);
        }

        boolean crosses(FailIf.Threshold threshold) {
            if (Boolean.FALSE.equals(significant)) {
                return false;
            }
            if (ciLow == null) {
                return threshold.crossedBy(difference, relativeDifference);
            }
            double bound = threshold.rise() ? ciLow : ciHigh;
            return threshold.crossedBy(bound, baseline == null || baseline == 0 ? null : bound / baseline);
        }
    }

    /** Consecutive blocks per run for the block bootstrap; a run needs twice as many values. */
    static final int BLOCKS = 10;

    /**
     * Compares the runs.
     *
     * @param groups the runs of each argument, in the order given
     * @param failIf thresholds, or null
     */
    public static Comparison of(List<List<RunDirectory>> groups, Settings settings, FailIf failIf) {
        return ofGroups(
                groups.stream()
                        .map(runs -> runs.stream().map(RunGroup::of).toList())
                        .toList(),
                settings,
                failIf);
    }

    /**
     * Compares the runs, across runs where both sides of a pair are repeats.
     *
     * @param arguments the run groups of each argument, in the order given
     * @param failIf    thresholds, or null
     */
    public static Comparison ofGroups(List<List<RunGroup>> arguments, Settings settings, FailIf failIf) {
        List<RunGroup> baselines = arguments.size() == 1 ? arguments.getFirst().subList(0, 1) : arguments.getFirst();
        List<RunGroup> others = new ArrayList<>();
        if (arguments.size() == 1) {
            others.addAll(arguments.getFirst().subList(1, arguments.getFirst().size()));
        }
        arguments.stream().skip(1).forEach(others::addAll);
        List<String> labels = new ArrayList<>();
        baselines.forEach(b -> b.runs().forEach(r -> labels.add(r.label())));
        others.forEach(o -> o.runs().forEach(r -> labels.add(r.label())));
        List<String> mismatches = new ArrayList<>();
        List<Pair> pairs = new ArrayList<>();
        for (RunGroup group : others) {
            RunGroup baselineGroup = baselines.stream()
                    .filter(b -> sameLoad(b.runs().getFirst(), group.runs().getFirst()))
                    .findFirst()
                    .orElse(baselines.getFirst());
            if (baselineGroup.repeated() && group.repeated()) {
                // The repeats of a set share one configuration: their first runs stand for them.
                Fairness.differences(
                                baselineGroup.runs().getFirst().report(),
                                group.runs().getFirst().report())
                        .forEach(d -> mismatches.add(group.label() + " vs " + baselineGroup.label() + ": " + d));
                pairs.add(acrossRuns(baselineGroup, group, settings.confidence()));
                continue;
            }
            RunDirectory baseline = baselineGroup.runs().getFirst();
            for (RunDirectory run : group.runs()) {
                Fairness.differences(baseline.report(), run.report())
                        .forEach(d -> mismatches.add(run.label() + " vs " + baseline.label() + ": " + d));
                pairs.add(pair(baseline, run, settings));
            }
        }
        List<String> regressions = new ArrayList<>();
        List<Verdict> verdicts = new ArrayList<>();
        for (Pair pair : pairs) {
            if (failIf != null) {
                for (FailIf.Threshold threshold : failIf.thresholds()) {
                    Difference difference = pair.metrics().stream()
                            .filter(d -> d.metric().equals(threshold.metric()))
                            .findFirst()
                            .orElseThrow();
                    Verdict verdict = difference.judge(pair.run(), threshold);
                    verdicts.add(verdict);
                    if (verdict.outcome() == Verdict.Outcome.REGRESSION) {
                        regressions.add(pair.run() + ": " + threshold.metric() + " " + format(difference.baseline())
                                + " -> " + format(difference.value()) + " (" + percent(difference.relativeDifference())
                                + ") crosses " + threshold);
                    }
                }
            }
        }
        return new Comparison(
                labels,
                mismatches,
                settings.confidence(),
                settings.resamples(),
                settings.seed(),
                pairs,
                failIf == null
                        ? List.of()
                        : failIf.thresholds().stream()
                                .map(FailIf.Threshold::toString)
                                .toList(),
                regressions,
                verdicts);
    }

    private static boolean sameLoad(RunDirectory a, RunDirectory b) {
        Load x = a.report().config() == null ? null : a.report().config().load();
        Load y = b.report().config() == null ? null : b.report().config().load();
        return x != null && x.equals(y);
    }

    private static Pair pair(RunDirectory baseline, RunDirectory run, Settings settings) {
        List<Difference> differences = new ArrayList<>();
        List<ComparedMetric> metrics = ComparedMetric.ALL;
        // Each family's statistics share one set of resamples: the expensive part is the resampling.
        Map<String, List<Bootstrap.Interval>> intervals = new HashMap<>();
        Map<String, List<Bootstrap.Interval>> blockIntervals = new HashMap<>();
        Map<String, Long> fewestValues = new HashMap<>();
        boolean journals = !baseline.records().isEmpty() && !run.records().isEmpty();
        for (String family : metrics.stream()
                .map(ComparedMetric::family)
                .filter(Objects::nonNull)
                .distinct()
                .toList()) {
            if (!journals) {
                break;
            }
            List<ComparedMetric> ofFamily =
                    metrics.stream().filter(m -> family.equals(m.family())).toList();
            double[][] baselineUnits = ComparedMetric.units(family, inIntendedOrder(baseline.records()));
            double[][] runUnits = ComparedMetric.units(family, inIntendedOrder(run.records()));
            fewestValues.put(family, Math.min(values(baselineUnits), values(runUnits)));
            List<Bootstrap.Statistic> statistics =
                    ofFamily.stream().map(ComparedMetric::statistic).toList();
            intervals.put(
                    family,
                    Bootstrap.differences(
                            baselineUnits,
                            runUnits,
                            statistics,
                            settings.resamples(),
                            settings.confidence(),
                            settings.seed()));
            if (baselineUnits.length >= 2 * BLOCKS && runUnits.length >= 2 * BLOCKS) {
                blockIntervals.put(
                        family,
                        Bootstrap.differences(
                                blocks(baselineUnits),
                                blocks(runUnits),
                                statistics,
                                settings.resamples(),
                                settings.confidence(),
                                settings.seed()));
            }
        }
        for (ComparedMetric metric : metrics) {
            Double a = metric.value().apply(baseline.report().results());
            Double b = metric.value().apply(run.report().results());
            Double difference = a == null || b == null ? null : b - a;
            Double relative = difference == null || a == 0 ? null : difference / a;
            Bootstrap.Interval sampling = interval(intervals, metrics, metric);
            Bootstrap.Interval block = sampling == null ? null : interval(blockIntervals, metrics, metric);
            Bootstrap.Interval interval = sampling == null
                    ? null
                    : block == null
                            ? sampling
                            : new Bootstrap.Interval(
                                    sampling.estimate(),
                                    Math.min(sampling.low(), block.low()),
                                    Math.max(sampling.high(), block.high()));
            boolean few = interval != null
                    && metric.percentile() != null
                    && fewestValues.get(metric.family()) < metric.percentile().minimumConfidentCount();
            differences.add(new Difference(
                    metric.key(),
                    a,
                    b,
                    difference,
                    relative,
                    interval == null ? null : interval.low(),
                    interval == null ? null : interval.high(),
                    interval == null ? null : interval.excludesZero() && !few,
                    few,
                    sampling == null ? null : sampling.low(),
                    sampling == null ? null : sampling.high()));
        }
        return new Pair(baseline.label(), run.label(), SAMPLING, 1, 1, differences);
    }

    /** Each metric's mean over the runs of each side, and Welch's interval of their difference. */
    private static Pair acrossRuns(RunGroup baseline, RunGroup run, double confidence) {
        List<Difference> differences = new ArrayList<>();
        for (ComparedMetric metric : ComparedMetric.ALL) {
            List<Double> a = baseline.runs().stream()
                    .map(r -> metric.value().apply(r.report().results()))
                    .toList();
            List<Double> b = run.runs().stream()
                    .map(r -> metric.value().apply(r.report().results()))
                    .toList();
            Double meanA = Repeats.across(metric.key(), a).mean();
            Double meanB = Repeats.across(metric.key(), b).mean();
            Double difference = meanA == null || meanB == null ? null : meanB - meanA;
            Double relative = difference == null || meanA == 0 ? null : difference / meanA;
            Bootstrap.Interval interval = Repeats.welch(a, b, confidence);
            differences.add(new Difference(
                    metric.key(),
                    meanA,
                    meanB,
                    difference,
                    relative,
                    interval == null ? null : interval.low(),
                    interval == null ? null : interval.high(),
                    interval == null ? null : interval.excludesZero(),
                    false,
                    null,
                    null));
        }
        return new Pair(
                baseline.label(),
                run.label(),
                RUNS,
                baseline.runs().size(),
                run.runs().size(),
                differences);
    }

    /** The interval of {@code metric} among its family's; null when there is none. */
    private static Bootstrap.Interval interval(
            Map<String, List<Bootstrap.Interval>> byFamily, List<ComparedMetric> metrics, ComparedMetric metric) {
        List<Bootstrap.Interval> ofFamily = metric.family() == null ? null : byFamily.get(metric.family());
        if (ofFamily == null || ofFamily.isEmpty()) {
            return null;
        }
        int position = metrics.stream()
                .filter(m -> metric.family().equals(m.family()))
                .toList()
                .indexOf(metric);
        Bootstrap.Interval interval = ofFamily.get(position);
        return Double.isNaN(interval.low()) ? null : interval;
    }

    private static List<dev.llmload.record.RequestRecord> inIntendedOrder(
            List<dev.llmload.record.RequestRecord> records) {
        return records.stream()
                .sorted(java.util.Comparator.comparingLong(r -> r.timings().intendedSendNanos()))
                .toList();
    }

    /**
     * The requests' values in {@link #BLOCKS} runs of consecutive requests, each block one unit
     * of the block bootstrap: resampling whole stretches of a run keeps what happened together
     * (a slow minute, a batch of long prompts) together, so the interval also covers how the
     * run varied over its course, which resampling single requests takes for noise that averages out.
     */
    static double[][] blocks(double[][] units) {
        double[][] blocks = new double[BLOCKS][];
        for (int b = 0; b < BLOCKS; b++) {
            int from = (int) ((long) units.length * b / BLOCKS);
            int to = (int) ((long) units.length * (b + 1) / BLOCKS);
            int size = 0;
            for (int i = from; i < to; i++) {
                size += units[i].length;
            }
            double[] block = new double[size];
            int at = 0;
            for (int i = from; i < to; i++) {
                System.arraycopy(units[i], 0, block, at, units[i].length);
                at += units[i].length;
            }
            blocks[b] = block;
        }
        return blocks;
    }

    private static long values(double[][] units) {
        long count = 0;
        for (double[] unit : units) {
            count += unit.length;
        }
        return count;
    }

    /** The console table: the mismatches first when there are any, then one block per pair. */
    public String render() {
        StringBuilder text = new StringBuilder();
        if (!mismatches.isEmpty()) {
            text.append("WARNING: these runs are not like for like (compared anyway, --allow-mismatch):\n");
            mismatches.forEach(m -> text.append("  ").append(m).append('\n'));
            text.append('\n');
        }
        String interval = PercentileSlo.format(confidence * 100) + "% CI of diff";
        for (Pair pair : pairs) {
            text.append(pair.run())
                    .append("  vs  ")
                    .append(pair.baseline())
                    .append(" (baseline)")
                    .append(
                            pair.interval().equals(RUNS)
                                    ? ", across runs: means of " + pair.runRuns() + " vs " + pair.baselineRuns()
                                            + " runs, Welch interval"
                                    : "")
                    .append('\n');
            text.append(String.format(
                    Locale.ROOT,
                    "%-34s %12s %12s %12s %9s  %-25s%n",
                    "Metric",
                    "baseline",
                    "run",
                    "diff",
                    "diff %",
                    interval));
            for (Difference d : pair.metrics()) {
                String ci = d.ciLow() == null
                        ? "-"
                        : "[" + format(d.ciLow()) + ", " + format(d.ciHigh()) + "]"
                                + (d.significant() ? " *" : d.fewSamples() ? " (few samples)" : "");
                text.append(String.format(
                                        Locale.ROOT,
                                        "%-34s %12s %12s %12s %9s  %-25s%n",
                                        ComparedMetric.byKey(d.metric()).title(),
                                        format(d.baseline()),
                                        format(d.value()),
                                        format(d.difference()),
                                        percent(d.relativeDifference()),
                                        ci)
                                .stripTrailing())
                        .append('\n');
            }
            text.append('\n');
        }
        text.append("* significant: the ").append(interval).append(" excludes 0.\n");
        if (pairs.stream().anyMatch(p -> p.interval().equals(SAMPLING))) {
            text.append("Run against run (interval: sampling): the interval covers sampling (")
                    .append(resamples)
                    .append(" bootstrap resamples, seed ")
                    .append(seed)
                    .append(")\n")
                    .append(
                            "  and how each run varied over its course (blocks of consecutive requests), not a shift that\n")
                    .append(
                            "  lasted a whole run: compare repeats (run --repeat K) to see that. Never significant for a\n")
                    .append("  percentile on fewer samples than it needs (p90: 10, p99: 100).\n");
        }
        if (pairs.stream().anyMatch(p -> p.interval().equals(RUNS))) {
            text.append("Across runs (interval: runs): baseline and run are means over each side's repeats, and the\n")
                    .append("  interval is Welch's of their difference (Student t, Welch-Satterthwaite degrees of\n")
                    .append("  freedom): it covers what differs from run to run.\n");
        }
        if (!verdicts.isEmpty()) {
            text.append("\n--fail-if:\n");
            verdicts.forEach(v -> text.append("  ").append(v.line()).append('\n'));
        }
        return text.toString();
    }

    /** {@code comparison.csv}: one row per pair and metric. */
    public String csv() {
        StringBuilder csv = new StringBuilder(
                "baseline,run,interval,metric,baseline_value,value,difference,relative_difference,ci_low,ci_high,significant,"
                        + "few_samples,sampling_ci_low,sampling_ci_high\n");
        for (Pair pair : pairs) {
            for (Difference d : pair.metrics()) {
                csv.append(String.join(
                                ",",
                                cell(pair.baseline()),
                                cell(pair.run()),
                                pair.interval(),
                                d.metric(),
                                cell(d.baseline()),
                                cell(d.value()),
                                cell(d.difference()),
                                cell(d.relativeDifference()),
                                cell(d.ciLow()),
                                cell(d.ciHigh()),
                                cell(d.significant()),
                                cell(d.fewSamples()),
                                cell(d.samplingCiLow()),
                                cell(d.samplingCiHigh())))
                        .append('\n');
            }
        }
        return csv.toString();
    }

    private static String cell(Object value) {
        if (value == null) {
            return "";
        }
        String text = value.toString();
        return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    private static String format(Double value) {
        if (value == null) {
            return "-";
        }
        double magnitude = Math.abs(value);
        return String.format(Locale.ROOT, magnitude != 0 && magnitude < 0.1 ? "%.4f" : "%.2f", value);
    }

    private static String percent(Double share) {
        return share == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", share * 100);
    }
}
