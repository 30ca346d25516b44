package dev.llmload.report;

import dev.llmload.stats.DistributionAccumulator;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A distribution as a percentile spectrum, the wrk2/HdrHistogram plot: value against percentile,
 * drawn on a log axis of 1/(1 − p) so the tail gets as much room as the body. Pure arithmetic.
 *
 * <p>From samples, the points lie on a fixed grid of {@link #POINTS_PER_DECADE} per decade of
 * 1/(1 − p), up to the last percentile the sample count can resolve (1 − 1/n), so a spectrum stays
 * a few hundred numbers however many samples there were (ITL pools one gap per token). From a
 * {@link Summary} alone, it is the handful of percentiles the summary keeps.
 *
 * @param percentiles from 0 to below 100, ascending
 * @param values      the value at each percentile, in the samples' unit
 * @param exact       false when built from a summary's few percentiles
 */
public record PercentileSpectrum(double[] percentiles, double[] values, boolean exact) {

    static final int POINTS_PER_DECADE = 24;

    public static final PercentileSpectrum EMPTY = new PercentileSpectrum(new double[0], new double[0], true);

    /** The spectrum of {@code samples}; the caller's array is not modified. */
    public static PercentileSpectrum of(double[] samples) {
        if (samples.length == 0) {
            return EMPTY;
        }
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        double[] percentiles = grid(sorted.length);
        double[] values = new double[percentiles.length];
        for (int i = 0; i < percentiles.length; i++) {
            values[i] = Statistics.percentile(sorted, percentiles[i]);
        }
        return new PercentileSpectrum(percentiles, values, true);
    }

    /** The grid's percentiles for {@code count} samples. */
    private static double[] grid(long count) {
        // Beyond 1/(1 − p) = n the percentile is an interpolation towards the maximum.
        double limit = Math.max(1, count);
        List<Double> grid = new ArrayList<>();
        for (int i = 0; Math.pow(10, (double) i / POINTS_PER_DECADE) < limit; i++) {
            grid.add(100 * (1 - Math.pow(10, -(double) i / POINTS_PER_DECADE)));
        }
        grid.add(100 * (1 - 1 / limit));
        return grid.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * The spectrum of everything {@code samples} holds: the same as {@link #of(double[])} of its
     * values while it is exact, within its relative error beyond (then not {@link #exact}).
     */
    public static PercentileSpectrum of(DistributionAccumulator samples) {
        if (samples.count() == 0) {
            return EMPTY;
        }
        double[] percentiles = grid(samples.count());
        return new PercentileSpectrum(percentiles, samples.percentiles(percentiles), samples.exact());
    }

    /** The coarse spectrum a summary allows: its minimum (as p0) and its percentiles. */
    public static PercentileSpectrum of(Summary summary) {
        if (summary == null || summary.isEmpty()) {
            return EMPTY;
        }
        Percentile[] kept = Percentile.values();
        double[] percentiles = new double[kept.length + 1];
        double[] values = new double[kept.length + 1];
        values[0] = summary.min();
        for (int i = 0; i < kept.length; i++) {
            percentiles[i + 1] = kept[i].value();
            values[i + 1] = summary.percentile(kept[i]);
        }
        return new PercentileSpectrum(percentiles, values, false);
    }
}
