package dev.llmload.stats;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Statistics of one distribution within a fixed memory budget: exact while the values fit,
 * a logarithmic histogram with a stated relative error beyond.
 *
 * <ul>
 *   <li>Up to {@code exactCapacity} values (2<sup>20</sup> by default, 8 MiB) are kept in a
 *       primitive array and summarised by {@link Statistics#summarize}: every figure is exact and
 *       equal to what NumPy gives.</li>
 *   <li>Past that, the values move into a {@link LogHistogram} of relative error α (0.1% by
 *       default). Count, minimum and maximum stay exact, and so do the mean and standard
 *       deviation of durations given in whole nanoseconds ({@link #addNanosAsMillis}: integer
 *       sums, rounded once); of values given as doubles they are streaming moments (Chan et al.'s
 *       update, exact up to the rounding of each step); each percentile is the type-7 interpolation between the
 *       histogram's estimates of the two order statistics around its rank, each within α of the
 *       true order statistic, so the percentile is within α of the exact one (clamped to the exact
 *       minimum and maximum). The summary then states α as {@code percentiles_relative_error}.</li>
 * </ul>
 *
 * <p>Accumulators merge (for runs spread over hosts): a merge is exact when both are exact and the
 * union still fits, otherwise the union's histogram, which equals the histogram of all values.
 *
 * <p>Owned by one thread at a time; not thread-safe, but for {@link #newPart}.
 */
public final class DistributionAccumulator {

    /** Values kept exactly before the accumulator switches to its histogram. */
    public static final int DEFAULT_EXACT_CAPACITY = 1 << 20;
    /** The histogram's relative error: 0.1%, three significant digits. */
    public static final double DEFAULT_RELATIVE_ERROR = 0.001;

    /** Parts whose sums of squares are kept in an array; more go to a map. */
    private static final int FEW_PARTS = 64;

    private static final double NANOS_PER_MS = 1_000_000.0;
    /** 40 significant digits: the exact moments' quotients, before their one rounding to a double. */
    private static final MathContext EXACT_ROUNDING = new MathContext(40, RoundingMode.HALF_EVEN);

    private final int exactCapacity;
    private final double relativeError;
    /** Whether {@link #values} holds every value: until the count passes the exact capacity. */
    private boolean exact = true;
    /** Not {@link #exact} any more, for {@link #newPart} on other threads. */
    private volatile boolean pastCapacity;
    /** Exact values while {@link #exact}. */
    private double[] values = new double[16];

    private int size;
    /**
     * Non-negative values once past the exact capacity (from the first value for a
     * {@link #part}); magnitudes of negative ones in {@link #negative}.
     */
    private LogHistogram positive;

    private LogHistogram negative;
    private long count;
    /**
     * Moments of the values given as whole nanoseconds ({@link #addNanosAsMillis}), exact: Σ of
     * the nanoseconds as a signed 128-bit integer, and per number of parts k a value was spread
     * over, Σ of the squared nanoseconds as an unsigned 128-bit integer (squares[2k] low word,
     * squares[2k + 1] high word).
     */
    private long nanosCount;

    private long nanosSumLow;
    private long nanosSumHigh;
    private long[] squares = new long[4];
    /** The same for more than {@value #FEW_PARTS} parts (events of many tokens, rare): parts → {low, high}. */
    private final Map<Integer, long[]> manyPartSquares = new HashMap<>();
    /** Moments of the values given as doubles, streaming (Chan et al.'s update). */
    private long doubleCount;

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

    /**
     * An accumulator for one part of the values, made to be {@link #merge merged} into one of the
     * same capacity and relative error: it keeps its histogram from the first value on beside its
     * exact values, so that merging it into an accumulator past its capacity adds bucket counts
     * rather than placing each value again. The same figures as any accumulator; the histogram
     * work is done where the part is filled (a thread of its own) instead of where it is merged.
     */
    public static DistributionAccumulator part(int exactCapacity, double relativeError) {
        DistributionAccumulator part = new DistributionAccumulator(exactCapacity, relativeError);
        part.positive = new LogHistogram(relativeError);
        part.negative = new LogHistogram(relativeError);
        return part;
    }

    /**
     * A part ({@link #part}) of an accumulator like this one; once this one is past its capacity,
     * a part without exact values (its own would be dropped in the merge), so parts of a big
     * distribution hold only their histogram. May be called from any thread.
     */
    public DistributionAccumulator newPart() {
        return part(pastCapacity ? 0 : exactCapacity, relativeError);
    }

    /** Adds one value. */
    public void add(double value) {
        add(value, 1);
    }

    /** Adds {@code times} values of {@code value}. */
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
        count += times;
        keep(value, times);
    }

    /**
     * Adds a duration of whole nanoseconds in milliseconds: the value {@code nanos / 10^6}, as
     * {@link #add(double)} would get it, while its moments are kept exactly: Σ of the
     * nanoseconds and Σ of their squares as integers, the mean and standard deviation rounded once
     * when summarised. That needs no division per value, and the figures do not depend on the
     * order of the values. Durations up to 2<sup>63</sup> ns; the sums hold up to
     * 2<sup>127</sup> ns² (10<sup>14</sup> gaps of 1,000 s each).
     */
    public void addNanosAsMillis(long nanos) {
        addNanosAsMillis(nanos, 1);
    }

    /**
     * Adds a duration of whole nanoseconds shared evenly by {@code parts} values (an inter-token
     * gap spread over the tokens of one event): {@code parts} values of
     * {@code nanos / 10^6 / parts} milliseconds, with exact moments as {@link #addNanosAsMillis(long)}
     * (their sum is exactly the duration; Σ of squares is kept per number of parts).
     */
    public void addNanosAsMillis(long nanos, int parts) {
        if (parts <= 0) {
            throw new IllegalArgumentException("parts must be positive: " + parts);
        }
        double value = nanos / NANOS_PER_MS;
        if (parts > 1) {
            value /= parts;
        }
        count += parts;
        nanosCount += parts;
        long sumLow = nanosSumLow + nanos;
        nanosSumHigh += (nanos >> 63) + (Long.compareUnsigned(sumLow, nanosSumLow) < 0 ? 1 : 0);
        nanosSumLow = sumLow;
        // |nanos| < 2^63, so its square is below 2^126: the signed high word is the unsigned one.
        long squareLow = nanos * nanos;
        long squareHigh = Math.multiplyHigh(nanos, nanos);
        if (parts <= FEW_PARTS) {
            if (2 * parts + 1 >= squares.length) {
                squares = Arrays.copyOf(squares, 2 * parts + 2);
            }
            addUnsigned128(squares, 2 * parts, squareLow, squareHigh);
        } else {
            addUnsigned128(manyPartSquares.computeIfAbsent(parts, k -> new long[2]), 0, squareLow, squareHigh);
        }
        keep(value, parts);
    }

    /** Adds the unsigned 128-bit {@code high:low} to {@code words[at + 1]:words[at]}. */
    private static void addUnsigned128(long[] words, int at, long low, long high) {
        long sum = words[at] + low;
        words[at + 1] += high + (Long.compareUnsigned(sum, low) < 0 ? 1 : 0);
        words[at] = sum;
    }

    /** Updates the minimum, maximum and exact values or histogram with {@code times} of {@code value}. */
    private void keep(double value, long times) {
        min = Math.min(min, value);
        max = Math.max(max, value);
        if (exact && size + times <= exactCapacity) {
            ensureExact(size + (int) times);
            if (times == 1) {
                values[size++] = value;
            } else {
                Arrays.fill(values, size, size + (int) times, value);
                size += (int) times;
            }
            if (positive != null) {
                addToHistogram(value, times);
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
        addMoments(other.doubleCount, other.mean, other.squaredDeviations);
        count += other.count;
        nanosCount += other.nanosCount;
        long sumLow = nanosSumLow + other.nanosSumLow;
        nanosSumHigh += other.nanosSumHigh + (Long.compareUnsigned(sumLow, nanosSumLow) < 0 ? 1 : 0);
        nanosSumLow = sumLow;
        if (other.squares.length > squares.length) {
            squares = Arrays.copyOf(squares, other.squares.length);
        }
        for (int i = 0; i < other.squares.length; i += 2) {
            addUnsigned128(squares, i, other.squares[i], other.squares[i + 1]);
        }
        other.manyPartSquares.forEach((parts, words) ->
                addUnsigned128(manyPartSquares.computeIfAbsent(parts, k -> new long[2]), 0, words[0], words[1]));
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        if (exact && other.exact && (long) size + other.size <= exactCapacity) {
            ensureExact(size + other.size);
            System.arraycopy(other.values, 0, values, size, other.size);
            size += other.size;
            if (positive != null) {
                mergeHistogram(other);
            }
            return;
        }
        toHistogram();
        mergeHistogram(other);
    }

    private void mergeHistogram(DistributionAccumulator other) {
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
        return exact;
    }

    /** The summary of every value added; exact percentiles, or within the stated relative error. */
    public Summary summary() {
        if (count == 0) {
            return Summary.EMPTY;
        }
        if (exact) {
            return Statistics.summarize(Arrays.copyOf(values, size));
        }
        double[] moments = moments();
        return new Summary(
                count,
                moments[0],
                moments[1],
                min,
                max,
                percentile(Percentile.P50),
                percentile(Percentile.P90),
                percentile(Percentile.P95),
                percentile(Percentile.P99),
                percentile(Percentile.P99_9),
                relativeError);
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
        double[] sorted = exact ? Arrays.copyOf(values, size) : null;
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
        if (n == 0) {
            return;
        }
        long total = doubleCount + n;
        double delta = m - mean;
        mean += delta * n / total;
        squaredDeviations += s + delta * delta * ((double) doubleCount * n / total);
        doubleCount = total;
    }

    /**
     * The mean and population standard deviation of every value. Of the values given in whole
     * nanoseconds alone, both are exact rationals rounded once: with S = Σ nanoseconds, n values
     * and Q<sub>k</sub> = Σ squared nanoseconds of those spread over k parts (each of the k values
     * is d/k, so Σ x² = Σ<sub>k</sub> Q<sub>k</sub> / k), mean = S / n and
     * n² · variance = n · Σ<sub>k</sub> Q<sub>k</sub> / k − S². Values given as doubles join by
     * Chan et al.'s update.
     */
    private double[] moments() {
        if (nanosCount == 0) {
            return new double[] {mean, Math.sqrt(Math.max(0, squaredDeviations) / count)};
        }
        BigInteger n = BigInteger.valueOf(nanosCount);
        BigInteger sum = BigInteger.valueOf(nanosSumHigh).shiftLeft(64).add(unsigned(nanosSumLow));
        Map<Integer, BigInteger> squaresByParts = new TreeMap<>();
        for (int k = 1; 2 * k < squares.length; k++) {
            if ((squares[2 * k] | squares[2 * k + 1]) != 0) {
                squaresByParts.put(k, unsigned(squares[2 * k + 1]).shiftLeft(64).add(unsigned(squares[2 * k])));
            }
        }
        manyPartSquares.forEach((k, words) ->
                squaresByParts.put(k, unsigned(words[1]).shiftLeft(64).add(unsigned(words[0]))));
        BigInteger lcm = BigInteger.ONE;
        for (int k : squaresByParts.keySet()) {
            BigInteger parts = BigInteger.valueOf(k);
            lcm = lcm.multiply(parts).divide(lcm.gcd(parts));
        }
        BigInteger weighted = BigInteger.ZERO;
        for (Map.Entry<Integer, BigInteger> entry : squaresByParts.entrySet()) {
            weighted = weighted.add(entry.getValue().multiply(lcm.divide(BigInteger.valueOf(entry.getKey()))));
        }
        // lcm · n² · variance in ns², never negative: Σ x² · n ≥ (Σ x)² for any values.
        BigInteger scaledVariance = n.multiply(weighted).subtract(lcm.multiply(sum.multiply(sum)));
        BigDecimal nanosPerMs = BigDecimal.valueOf(NANOS_PER_MS);
        BigDecimal nanosMean = new BigDecimal(sum).divide(new BigDecimal(n).multiply(nanosPerMs), EXACT_ROUNDING);
        BigDecimal nanosVariance = new BigDecimal(scaledVariance)
                .divide(new BigDecimal(lcm.multiply(n).multiply(n)).multiply(nanosPerMs.pow(2)), EXACT_ROUNDING);
        if (doubleCount == 0) {
            return new double[] {
                nanosMean.doubleValue(), nanosVariance.sqrt(EXACT_ROUNDING).doubleValue()
            };
        }
        double wholeMean = nanosMean.doubleValue();
        double delta = mean - wholeMean;
        double combinedMean = wholeMean + delta * doubleCount / count;
        double deviations = nanosVariance.doubleValue() * nanosCount
                + squaredDeviations
                + delta * delta * ((double) nanosCount * doubleCount / count);
        return new double[] {combinedMean, Math.sqrt(Math.max(0, deviations) / count)};
    }

    private static BigInteger unsigned(long word) {
        BigInteger value = BigInteger.valueOf(word & Long.MAX_VALUE);
        return word < 0 ? value.setBit(63) : value;
    }

    private void ensureExact(int needed) {
        if (needed > values.length) {
            values = Arrays.copyOf(values, (int) Math.min(exactCapacity, Math.max(needed, 2L * values.length)));
        }
    }

    /** Leaves the exact values for the histogram, placing them in it unless it holds them already (a part). */
    private void toHistogram() {
        if (!exact) {
            return;
        }
        if (positive == null) {
            positive = new LogHistogram(relativeError);
            negative = new LogHistogram(relativeError);
            for (int i = 0; i < size; i++) {
                addToHistogram(values[i], 1);
            }
        }
        exact = false;
        pastCapacity = true;
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
