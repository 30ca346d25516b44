package dev.llmload.compare;

import dev.llmload.stats.Statistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Percentile-bootstrap confidence intervals of the difference of a statistic between two runs.
 * The resampled unit is a request: each unit holds that request's values (one TTFT, or all its
 * inter-token gaps), so the gaps of one request, which move together, are kept together, and the
 * interval does not pretend a long stream is many independent samples. Each resample draws as many
 * units as each run has, with replacement, from each run independently, and computes
 * {@code statistic(other) − statistic(baseline)}; the interval is the (1 − c)/2 and (1 + c)/2
 * percentiles of those differences. Seeded, so the same inputs give the same interval. Pure.
 */
public final class Bootstrap {

    /** A statistic of pooled values, given them sorted ascending (never empty). */
    @FunctionalInterface
    public interface Statistic {
        double of(double[] sorted);

        static Statistic mean() {
            return sorted -> Arrays.stream(sorted).sum() / sorted.length;
        }

        /** @param p from 0 to 100, interpolated as {@link Statistics#percentile} */
        static Statistic percentile(double p) {
            return sorted -> Statistics.percentile(sorted, p);
        }
    }

    /**
     * @param estimate the difference of the statistic on the two runs as measured
     * @param low      lower end of the interval
     * @param high     upper end
     */
    public record Interval(double estimate, double low, double high) {
        /** Whether the difference is significant at the interval's confidence: 0 is outside it. */
        public boolean excludesZero() {
            return low > 0 || high < 0;
        }
    }

    private Bootstrap() {}

    /**
     * The intervals of the differences of each statistic, computed on the same resamples.
     *
     * @param baseline   one array of values per request of the baseline run
     * @param other      the same for the run compared with it
     * @param confidence e.g. 0.95
     * @return one interval per statistic, in order; empty when either run has no value at all
     */
    public static List<Interval> differences(
            double[][] baseline,
            double[][] other,
            List<Statistic> statistics,
            int resamples,
            double confidence,
            long seed) {
        if (resamples < 1) {
            throw new IllegalArgumentException("resamples must be at least 1, got " + resamples);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be between 0 and 1, got " + confidence);
        }
        double[] pooledBaseline = pool(baseline, null);
        double[] pooledOther = pool(other, null);
        if (pooledBaseline.length == 0 || pooledOther.length == 0) {
            return List.of();
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[][] differences = new double[statistics.size()][resamples];
        int kept = 0;
        for (int r = 0; r < resamples; r++) {
            double[] a = pool(baseline, random);
            double[] b = pool(other, random);
            if (a.length == 0 || b.length == 0) {
                continue; // every drawn request had no value (e.g. single-token streams): no statistic to compare
            }
            for (int s = 0; s < statistics.size(); s++) {
                differences[s][kept] =
                        statistics.get(s).of(b) - statistics.get(s).of(a);
            }
            kept++;
        }
        List<Interval> intervals = new ArrayList<>(statistics.size());
        for (int s = 0; s < statistics.size(); s++) {
            double estimate =
                    statistics.get(s).of(pooledOther) - statistics.get(s).of(pooledBaseline);
            if (kept == 0) {
                intervals.add(new Interval(estimate, Double.NaN, Double.NaN));
                continue;
            }
            double[] sorted = Arrays.copyOf(differences[s], kept);
            Arrays.sort(sorted);
            intervals.add(new Interval(
                    estimate,
                    Statistics.percentile(sorted, (1 - confidence) / 2 * 100),
                    Statistics.percentile(sorted, (1 + confidence) / 2 * 100)));
        }
        return intervals;
    }

    /** The values of all units, or of {@code units.length} units drawn with replacement, sorted. */
    private static double[] pool(double[][] units, SplittableRandom random) {
        int[] chosen = new int[units.length];
        int size = 0;
        for (int i = 0; i < units.length; i++) {
            chosen[i] = random == null ? i : random.nextInt(units.length);
            size += units[chosen[i]].length;
        }
        double[] values = new double[size];
        int at = 0;
        for (int unit : chosen) {
            System.arraycopy(units[unit], 0, values, at, units[unit].length);
            at += units[unit].length;
        }
        Arrays.sort(values);
        return values;
    }
}
