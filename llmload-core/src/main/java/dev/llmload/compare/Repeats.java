package dev.llmload.compare;

import dev.llmload.metrics.PercentileSlo;
import dev.llmload.report.RunGroup;
import dev.llmload.report.RunReport;
import dev.llmload.stats.StudentT;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code repeats.json}: K runs of one configuration ({@code llmload run --repeat K}) and, for each
 * key metric, its value in every run, their mean and two Student-t intervals across the runs: the
 * confidence interval of the mean, and the prediction interval, where one further run's value is
 * expected to fall. Unlike a bootstrap over one run's requests, these see everything that differs
 * from run to run (the server's state, the machine, the order of events). Pure.
 *
 * @param runs       the run directories, in the order run
 * @param confidence of both intervals, 0.95
 * @param metrics    in the order of {@link ComparedMetric#ALL}
 */
public record Repeats(List<String> runs, double confidence, List<Metric> metrics) {

    public static final String FILE_NAME = RunGroup.REPEATS_JSON;
    public static final double CONFIDENCE = 0.95;

    /**
     * One metric across the runs; the statistics are null with fewer than 2 values (a run without
     * it, e.g. no TTFT when not streamed, is left out).
     *
     * @param values         one per run, null where a run had none
     * @param std            sample standard deviation (n − 1)
     * @param ciLow          mean ± t·std/√n
     * @param predictionLow  mean ± t·std·√(1 + 1/n): where a further run's value falls
     */
    public record Metric(
            String metric,
            List<Double> values,
            Double mean,
            Double std,
            Double ciLow,
            Double ciHigh,
            Double predictionLow,
            Double predictionHigh) {}

    public static Repeats of(List<String> runs, List<RunReport> reports) {
        List<Metric> metrics = new ArrayList<>();
        for (ComparedMetric metric : ComparedMetric.ALL) {
            metrics.add(across(
                    metric.key(),
                    reports.stream().map(r -> metric.value().apply(r.results())).toList()));
        }
        return new Repeats(List.copyOf(runs), CONFIDENCE, List.copyOf(metrics));
    }

    /**
     * One metric's statistics across runs, nulls (runs without it) left out. The prediction interval
     * holds a further run with probability {@link #CONFIDENCE} when runs vary as independent draws of
     * one normal distribution; with ~20 metrics per run, about one of a further run's values is
     * expected outside its interval.
     */
    public static Metric across(String key, List<Double> values) {
        double[] present = values.stream()
                .filter(v -> v != null)
                .mapToDouble(Double::doubleValue)
                .toArray();
        int n = present.length;
        if (n < 2) {
            return new Metric(key, values, n == 1 ? present[0] : null, null, null, null, null, null);
        }
        double mean = Arrays.stream(present).average().orElseThrow();
        double std = Math.sqrt(variance(present, mean));
        double t = t95(n - 1);
        double half = t * std / Math.sqrt(n);
        double predicted = t * std * Math.sqrt(1 + 1.0 / n);
        return new Metric(key, values, mean, std, mean - half, mean + half, mean - predicted, mean + predicted);
    }

    /** The two-sided 95% quantile of Student's t. */
    static double t95(int degrees) {
        return StudentT.twoSided(CONFIDENCE, degrees);
    }

    /**
     * Welch's interval of the difference of two means across runs, {@code mean(run) − mean(baseline)},
     * each side's runs taken as independent draws with a variance of their own: mean difference ±
     * t·√(s²ₐ/nₐ + s²ᵦ/nᵦ), with t Student's two-sided quantile for the Welch–Satterthwaite degrees of
     * freedom (s²ₐ/nₐ + s²ᵦ/nᵦ)² / ((s²ₐ/nₐ)²/(nₐ − 1) + (s²ᵦ/nᵦ)²/(nᵦ − 1)). Nulls (runs without the
     * metric) are left out.
     *
     * @return null when either side has fewer than 2 values; a zero-width interval at the difference
     *         when neither side varies
     */
    public static Bootstrap.Interval welch(List<Double> baseline, List<Double> run, double confidence) {
        double[] a = baseline.stream()
                .filter(v -> v != null)
                .mapToDouble(Double::doubleValue)
                .toArray();
        double[] b = run.stream()
                .filter(v -> v != null)
                .mapToDouble(Double::doubleValue)
                .toArray();
        if (a.length < 2 || b.length < 2) {
            return null;
        }
        double meanA = Arrays.stream(a).average().orElseThrow();
        double meanB = Arrays.stream(b).average().orElseThrow();
        double shareA = variance(a, meanA) / a.length;
        double shareB = variance(b, meanB) / b.length;
        double difference = meanB - meanA;
        double squared = shareA + shareB;
        if (squared == 0) {
            return new Bootstrap.Interval(difference, difference, difference);
        }
        double degrees = squared * squared / (shareA * shareA / (a.length - 1) + shareB * shareB / (b.length - 1));
        double half = StudentT.twoSided(confidence, degrees) * Math.sqrt(squared);
        return new Bootstrap.Interval(difference, difference - half, difference + half);
    }

    /** Sample variance (n − 1). */
    private static double variance(double[] values, double mean) {
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        return squares / (values.length - 1);
    }

    /** The console table: each metric's mean, its interval and the range a further run is expected in. */
    public String render() {
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "Across %d runs (%s intervals, Student t):%n",
                runs.size(),
                PercentileSlo.format(confidence * 100) + "%"));
        text.append(String.format(
                Locale.ROOT,
                "%-34s %12s %10s  %-25s  %-25s%n",
                "Metric",
                "mean",
                "std",
                "CI of the mean",
                "a further run"));
        for (Metric m : metrics) {
            text.append(String.format(
                                    Locale.ROOT,
                                    "%-34s %12s %10s  %-25s  %-25s",
                                    ComparedMetric.byKey(m.metric()).title(),
                                    format(m.mean()),
                                    format(m.std()),
                                    range(m.ciLow(), m.ciHigh()),
                                    range(m.predictionLow(), m.predictionHigh()))
                            .stripTrailing())
                    .append('\n');
        }
        return text.toString();
    }

    private static String range(Double low, Double high) {
        return low == null ? "-" : "[" + format(low) + ", " + format(high) + "]";
    }

    private static String format(Double value) {
        return value == null
                ? "-"
                : String.format(Locale.ROOT, Math.abs(value) != 0 && Math.abs(value) < 0.1 ? "%.4f" : "%.2f", value);
    }
}
