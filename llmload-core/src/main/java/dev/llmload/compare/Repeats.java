package dev.llmload.compare;

import dev.llmload.metrics.PercentileSlo;
import dev.llmload.report.RunReport;
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

    public static final String FILE_NAME = "repeats.json";
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
    public record Metric(String metric, List<Double> values, Double mean, Double std, Double ciLow, Double ciHigh,
                         Double predictionLow, Double predictionHigh) {}

    /** Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom. */
    private static final double[] T95 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    public static Repeats of(List<String> runs, List<RunReport> reports) {
        List<Metric> metrics = new ArrayList<>();
        for (ComparedMetric metric : ComparedMetric.ALL) {
            metrics.add(across(metric.key(), reports.stream().map(r -> metric.value().apply(r.results())).toList()));
        }
        return new Repeats(List.copyOf(runs), CONFIDENCE, List.copyOf(metrics));
    }

    /**
     * One metric's statistics across runs, nulls (runs without it) left out. The prediction interval
     * holds a further run with probability {@link #CONFIDENCE} when runs vary as independent draws of
     * one normal distribution; with ~20 metrics per run, about one of a further run's values is
     * expected outside its interval.
     */
    static Metric across(String key, List<Double> values) {
        double[] present = values.stream().filter(v -> v != null).mapToDouble(Double::doubleValue).toArray();
        int n = present.length;
        if (n < 2) {
            return new Metric(key, values, n == 1 ? present[0] : null, null, null, null, null, null);
        }
        double mean = Arrays.stream(present).average().orElseThrow();
        double squares = 0;
        for (double v : present) {
            squares += (v - mean) * (v - mean);
        }
        double std = Math.sqrt(squares / (n - 1));
        double t = t95(n - 1);
        double half = t * std / Math.sqrt(n);
        double predicted = t * std * Math.sqrt(1 + 1.0 / n);
        return new Metric(key, values, mean, std, mean - half, mean + half, mean - predicted, mean + predicted);
    }

    /** The two-sided 95% quantile of Student's t; beyond 30 degrees of freedom by its expansion about the normal's. */
    static double t95(int degrees) {
        if (degrees <= T95.length) {
            return T95[degrees - 1];
        }
        double z = 1.959964;
        return z + (z * z * z + z) / (4.0 * degrees);
    }

    /** The console table: each metric's mean, its interval and the range a further run is expected in. */
    public String render() {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "Across %d runs (%s intervals, Student t):%n",
                runs.size(), PercentileSlo.format(confidence * 100) + "%"));
        text.append(String.format(Locale.ROOT, "%-34s %12s %10s  %-25s  %-25s%n", "Metric", "mean", "std",
                "CI of the mean", "a further run"));
        for (Metric m : metrics) {
            text.append(String.format(Locale.ROOT, "%-34s %12s %10s  %-25s  %-25s", ComparedMetric.byKey(m.metric()).title(),
                    format(m.mean()), format(m.std()), range(m.ciLow(), m.ciHigh()), range(m.predictionLow(),
                            m.predictionHigh())).stripTrailing()).append('\n');
        }
        return text.toString();
    }

    private static String range(Double low, Double high) {
        return low == null ? "-" : "[" + format(low) + ", " + format(high) + "]";
    }

    private static String format(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, Math.abs(value) != 0 && Math.abs(value) < 0.1 ? "%.4f" : "%.2f", value);
    }
}
