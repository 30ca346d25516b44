package dev.llmload.stats;

import java.util.Arrays;

/**
 * Summary statistics computed the way vLLM's and AIPerf's benchmarks compute them with NumPy, so
 * that numbers line up: population standard deviation ({@code ddof=0}) and percentiles by linear
 * interpolation between closest ranks ({@code numpy.percentile(x, p)}, {@code method="linear"},
 * Hyndman–Fan type 7).
 *
 * <p>Pure functions; samples must be finite (NaN or infinity is a bug upstream, and is rejected
 * rather than silently poisoning every statistic).
 */
public final class Statistics {

    private Statistics() {}

    /**
     * Summarizes {@code values}; the caller's array is not modified.
     *
     * @return {@link Summary#EMPTY} for no values
     * @throws IllegalArgumentException if a value is NaN or infinite
     */
    public static Summary summarize(double[] values) {
        if (values.length == 0) {
            return Summary.EMPTY;
        }
        double[] sorted = values.clone();
        for (int i = 0; i < sorted.length; i++) {
            if (!Double.isFinite(sorted[i])) {
                throw new IllegalArgumentException("sample " + i + " of " + sorted.length + " is " + sorted[i]
                        + "; statistics need finite values");
            }
        }
        Arrays.sort(sorted);
        int n = sorted.length;
        double sum = 0;
        for (double value : sorted) {
            sum += value;
        }
        double mean = sum / n;
        // Two passes (deviations from the mean) rather than E[x²] − E[x]², which cancels badly.
        double squaredDeviations = 0;
        for (double value : sorted) {
            double deviation = value - mean;
            squaredDeviations += deviation * deviation;
        }
        double std = Math.sqrt(squaredDeviations / n);
        return new Summary(
                n,
                mean,
                std,
                sorted[0],
                sorted[n - 1],
                percentile(sorted, Percentile.P50.value()),
                percentile(sorted, Percentile.P90.value()),
                percentile(sorted, Percentile.P95.value()),
                percentile(sorted, Percentile.P99.value()),
                percentile(sorted, Percentile.P99_9.value()));
    }

    /**
     * The {@code p}-th percentile of ascending {@code sorted} values, as {@code numpy.percentile}:
     * rank = p/100 · (n − 1), interpolated linearly between the values at floor(rank) and ceil(rank).
     *
     * @param p from 0 to 100
     * @throws IllegalArgumentException if {@code sorted} is empty or {@code p} is out of range
     */
    public static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no percentile of an empty set");
        }
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be from 0 to 100: " + p);
        }
        double rank = p / 100 * (sorted.length - 1);
        int below = (int) Math.floor(rank);
        int above = (int) Math.ceil(rank);
        double fraction = rank - below;
        double low = sorted[below];
        double high = sorted[above];
        double difference = high - low;
        // NumPy's _lerp interpolates from the nearer end, which keeps the result within [low, high]
        // under rounding; doing the same makes results agree to the last bit.
        return fraction >= 0.5 ? high - difference * (1 - fraction) : low + difference * fraction;
    }
}
