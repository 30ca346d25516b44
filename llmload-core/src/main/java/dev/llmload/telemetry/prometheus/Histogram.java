package dev.llmload.telemetry.prometheus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A cumulative Prometheus histogram: bucket upper bounds ({@code le}) with the count of
 * observations at or below each, ending with {@code +Inf}, plus the sum and count.
 *
 * @param buckets by ascending upper bound; counts are cumulative
 * @param sum     the {@code _sum} sample
 * @param count   the {@code _count} sample (equal to the {@code +Inf} bucket when consistent)
 */
public record Histogram(List<Bucket> buckets, double sum, double count) {

    /** One {@code _bucket} sample: observations with value ≤ {@code upperBound}. */
    public record Bucket(double upperBound, double cumulativeCount) {}

    public Histogram {
        buckets = List.copyOf(buckets);
    }

    /** Adds series bucket by bucket (series of one metric share their bounds, e.g. per DP engine). */
    public Histogram plus(Histogram other) {
        return combine(other, 1);
    }

    /**
     * The observations made between {@code earlier} and this snapshot of the same series. A
     * count that went down means the server restarted; the whole of this snapshot is then new.
     */
    public Histogram minus(Histogram earlier) {
        if (count < earlier.count) {
            return this;
        }
        return combine(earlier, -1);
    }

    private Histogram combine(Histogram other, int sign) {
        Map<Double, Double> byBound = new TreeMap<>();
        for (Bucket bucket : buckets) {
            byBound.merge(bucket.upperBound(), bucket.cumulativeCount(), Double::sum);
        }
        for (Bucket bucket : other.buckets) {
            byBound.merge(bucket.upperBound(), sign * bucket.cumulativeCount(), Double::sum);
        }
        List<Bucket> merged = new ArrayList<>(byBound.size());
        byBound.forEach((bound, cumulative) -> merged.add(new Bucket(bound, cumulative)));
        return new Histogram(merged, sum + sign * other.sum, count + sign * other.count);
    }

    /** Mean of the observations, or {@code NaN} when there are none. */
    public double mean() {
        return count > 0 ? sum / count : Double.NaN;
    }

    /**
     * The q-quantile (0 ≤ q ≤ 1) estimated as Prometheus' {@code histogram_quantile} does:
     * find the bucket holding rank q·count and interpolate linearly inside it (the first
     * bucket starts at 0); a rank in the {@code +Inf} bucket answers the highest finite bound.
     * {@code NaN} when there are no observations or no {@code +Inf} bucket.
     */
    public double quantile(double q) {
        int b = bucketOf(q);
        if (b < 0) {
            return Double.NaN;
        }
        int n = buckets.size();
        double rank = q * buckets.get(n - 1).cumulativeCount();
        if (b == n - 1) {
            return buckets.get(n - 2).upperBound();
        }
        double end = buckets.get(b).upperBound();
        if (b == 0 && end <= 0) {
            return end;
        }
        double start = 0;
        double inBucket = buckets.get(b).cumulativeCount();
        if (b > 0) {
            start = buckets.get(b - 1).upperBound();
            inBucket -= buckets.get(b - 1).cumulativeCount();
            rank -= buckets.get(b - 1).cumulativeCount();
        }
        return start + (end - start) * (rank / inBucket);
    }

    /**
     * The bucket the q-quantile falls in, as {@code [lower bound, upper bound]} (the first bucket
     * starts at 0; the {@code +Inf} bucket's upper bound is {@code +Inf}): all the histogram
     * knows of that quantile, which {@link #quantile} only interpolates inside. Null when
     * {@link #quantile} is {@code NaN}.
     */
    public double[] quantileBucket(double q) {
        int b = bucketOf(q);
        if (b < 0) {
            return null;
        }
        double lower = b == 0
                ? Math.min(0, buckets.get(0).upperBound())
                : buckets.get(b - 1).upperBound();
        return new double[] {lower, buckets.get(b).upperBound()};
    }

    /** Index of the bucket holding rank q·count; -1 without observations or without a {@code +Inf} bucket. */
    private int bucketOf(double q) {
        int n = buckets.size();
        if (n < 2 || buckets.get(n - 1).upperBound() != Double.POSITIVE_INFINITY) {
            return -1;
        }
        double total = buckets.get(n - 1).cumulativeCount();
        if (!(total > 0) || q < 0 || q > 1) {
            return -1;
        }
        double rank = q * total;
        int b = 0;
        while (b < n - 1 && buckets.get(b).cumulativeCount() < rank) {
            b++;
        }
        return b;
    }
}
