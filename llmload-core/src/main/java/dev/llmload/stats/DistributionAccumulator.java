package dev.llmload.stats;

import java.util.Arrays;

/**
 * Statistics of one distribution within a fixed memory budget: exact while the values fit,
 * a logarithmic histogram with a stated relative error beyond.
 *
 * <ul>
 *   <li>Up to {@code exactCapacity} values (2<sup>20</sup> by default, 8 MiB) are kept in a
 *       primitive array and summarised by {@link Statistics#summarize}: every figure is exact and
 *       equal to what NumPy gives.</li>
 *   <li>Past that, the values move into a {@link LogHistogram} of relative error α (0.1% by
 *       default). Count, mean, standard deviation, minimum and maximum stay exact (streaming
 *       moments, Welford's update); each percentile is the type-7 interpolation between the
 *       histogram's estimates of the two order statistics around its rank, each within α of the
 *       true order statistic, so the percentile is within α of the exact one (clamped to the exact
 *       minimum and maximum). The summary then states α as {@code percentiles_relative_error}.</li>
 * </ul>
 *
 * <p>Accumulators merge (for runs spread over hosts): a merge is exact when both are exact and the
 * union still fits, otherwise the union's histogram, which equals the histogram of all values.
 *
 * <p>Owned by one thread at a time; not thread-safe.
 */
public final class DistributionAccumulator implements SampleSink {

    /** Values kept exactly before the accumulator switches to its histogram. */
    public static final int DEFAULT_EXACT_CAPACITY = 1 << 20;
    /** The histogram's relative error: 0.1%, three significant digits. */
    public static final double DEFAULT_RELATIVE_ERROR = 0.001;

    private final int exactCapacity;
    private final double relativeError;
    /** Exact values while {@link #positive} is null. */
    private double[] values = new double[16];
    private int size;
    /** Non-negative values once past the exact capacity; magnitudes of negative ones in {@link #negative}. */
    private LogHistogram positive;
    private LogHistogram negative;
    private long count;
    private double mean;
    private double squaredDeviations;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    public DistributionAccumulator() {
        this(DEFAULT_EXACT_CAPACITY, DEFAULT_RELATIVE_ERROR);
    }

    /**
     * @param exactCapacity values kept exactly before switching to the histogram
     * @param relativeError the histogram's relative error α, from 1e-6 to 0.1
     */
    public DistributionAccumulator(int exactCapacity, double relativeError) {
        if (exactCapacity < 0) {
            throw new IllegalArgumentException("exact capacity must not be negative: " + exactCapacity);
        }
        if (!(relativeError >= 1e-6 && relativeError <= 0.1)) {
            throw new IllegalArgumentException("relative error must be from 1e-6 to 0.1: " + relativeError);
        }
        this.exactCapacity = exactCapacity;
        this.relativeError = relativeError;
    }

    @Override
    public void add(double value, long times) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("sample " + count + " is " + value + "; statistics need finite values");
        }
        if (times <= 0) {
            if (times == 0) {
                return;
            }
            throw new IllegalArgumentException("count must not be negative: " + times);
        }
        addMoments(times, value, 0);
        min = Math.min(min, value);
        max = Math.max(max, value);
        if (positive == null && size + times <= exactCapacity) {
            ensureExact(size + (int) times);
            if (times == 1) {
                values[size++] = value;
            } else {
                Arrays.fill(values, size, size + (int) times, value);
                size += (int) times;
            }
        } else {
            toHistogram();
            addToHistogram(value, times);
        }
    }

    /** Adds every value of {@code other} to this one; {@code other} is unchanged. */
    public void merge(DistributionAccumulator other) {
        if (other.count == 0) {
            return;
        }
        addMoments(other.count, other.mean, other.squaredDeviations);
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        if (positive == null && other.positive == null && (long) size + other.size <= exactCapacity) {
            ensureExact(size + other.size);
            System.arraycopy(other.values, 0, values, size, other.size);
            size += other.size;
            return;
        }
        toHistogram();
        if (other.positive == null) {
            for (int i = 0; i < other.size; i++) {
                addToHistogram(other.values[i], 1);
            }
        } else {
            positive.merge(other.positive);
            negative.merge(other.negative);
        }
    }

    /** How many values were added. */
    public long count() {
        return count;
    }

    /** Whether the percentiles are still exact. */
    public boolean exact() {
        return positive == null;
    }

    /** The summary of every value added; exact percentiles, or within the stated relative error. */
    public Summary summary() {
        if (count == 0) {
            return Summary.EMPTY;
        }
        if (positive == null) {
            return Statistics.summarize(Arrays.copyOf(values, size));
        }
        double std = Math.sqrt(Math.max(0, squaredDeviations) / count);
        return new Summary(count, mean, std, min, max,
                percentile(Percentile.P50), percentile(Percentile.P90), percentile(Percentile.P95),
                percentile(Percentile.P99), percentile(Percentile.P99_9), relativeError);
    }

    /**
     * The values at the percentiles {@code ps} (0–100) of everything added: exact (type 7, as
     * {@link Statistics#percentile}) while exact, else within the relative error. Null for none.
     */
    public double[] percentiles(double... ps) {
        if (count == 0) {
            return null;
        }
        double[] result = new double[ps.length];
        double[] sorted = positive == null ? Arrays.copyOf(values, size) : null;
        if (sorted != null) {
            Arrays.sort(sorted);
        }
        for (int i = 0; i < ps.length; i++) {
            result[i] = sorted != null ? Statistics.percentile(sorted, ps[i]) : percentile(ps[i]);
        }
        return result;
    }

    private double percentile(Percentile percentile) {
        return percentile(percentile.value());
    }

    private double percentile(double p) {
        double rank = p / 100 * (count - 1);
        long below = (long) Math.floor(rank);
        long above = (long) Math.ceil(rank);
        double low = valueAtRank(below);
        double high = valueAtRank(above);
        double interpolated = low + (high - low) * (rank - below);
        return Math.min(max, Math.max(min, interpolated));
    }

    private double valueAtRank(long rank) {
        long negatives = negative.total();
        return rank < negatives ? -negative.valueAtRank(negatives - 1 - rank) : positive.valueAtRank(rank - negatives);
    }

    /** Chan et al.'s pairwise update: merges {@code n} values of mean {@code m} and squared deviations {@code s}. */
    private void addMoments(long n, double m, double s) {
        long total = count + n;
        double delta = m - mean;
        mean += delta * n / total;
        squaredDeviations += s + delta * delta * ((double) count * n / total);
        count = total;
    }

    private void ensureExact(int needed) {
        if (needed > values.length) {
            values = Arrays.copyOf(values, (int) Math.min(exactCapacity, Math.max(needed, 2L * values.length)));
        }
    }

    private void toHistogram() {
        if (positive != null) {
            return;
        }
        positive = new LogHistogram(relativeError);
        negative = new LogHistogram(relativeError);
        for (int i = 0; i < size; i++) {
            addToHistogram(values[i], 1);
        }
        values = new double[0];
        size = 0;
    }

    private void addToHistogram(double value, long times) {
        if (value < 0) {
            negative.add(-value, times);
        } else {
            positive.add(value, times);
        }
    }
}
