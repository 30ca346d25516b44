package dev.llmload.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LogBucketsTest {

    @Test
    void bucketsOfHandComputedValues() {
        // ceil(ln v / ln(1.001 / 0.999)), computed apart: ln 20 / 0.0020020013… = 1497.87.
        LogBuckets buckets = LogBuckets.of(0.001);
        assertThat(buckets.index(20.0)).isEqualTo(1498);
        assertThat(buckets.index(1.0)).isEqualTo(0);
        assertThat(buckets.index(0.5)).isEqualTo(-346);
        assertThat(buckets.index(0.001)).isEqualTo(-3453);
        assertThat(buckets.index(1e6)).isEqualTo(6908);
        assertThat(LogBuckets.of(0.01).index(20.0)).isEqualTo(150);
    }

    @Test
    void everyValueGetsTheBucketOfTheLogarithmAcrossTheRange() {
        for (double alpha : new double[] {0.1, 0.01, 0.001, 1e-4, 1e-6}) {
            LogBuckets buckets = LogBuckets.of(alpha);
            SplittableRandom random = new SplittableRandom(11);
            for (int i = 0; i < 200_000; i++) {
                // Log-uniform from 1e-9 to 1e12: a nanosecond to centuries in milliseconds.
                double value = Math.pow(10, random.nextDouble(-9, 12));
                assertThat(buckets.index(value)).as("α %s, %s", alpha, value).isEqualTo(buckets.indexByLog(value));
            }
            for (double edge : new double[] {
                Double.MIN_NORMAL, Double.MAX_VALUE, 1.0, Math.nextDown(1.0), 2.0, Math.nextDown(2.0), Math.nextUp(1.0)
            }) {
                assertThat(buckets.index(edge)).as("α %s, %s", alpha, edge).isEqualTo(buckets.indexByLog(edge));
            }
        }
    }

    @Test
    void valuesAroundEachBucketBoundaryFallOnTheSameSideAsTheLogarithmPutsThem() {
        LogBuckets buckets = LogBuckets.of(0.001);
        double logGamma = buckets.logGamma();
        // Every boundary γ^k from about 1 µs to 17 minutes in milliseconds, and the doubles
        // within a few ulps of it on both sides, where a table could put a value one bucket off.
        for (int k = -6_900; k <= 10_000; k++) {
            double boundary = Math.exp(k * logGamma);
            double value = boundary;
            for (int step = 0; step < 4; step++) {
                value = Math.nextDown(value);
            }
            for (int step = 0; step < 9; step++, value = Math.nextUp(value)) {
                assertThat(buckets.index(value)).as("γ^%d ≈ %s", k, value).isEqualTo(buckets.indexByLog(value));
            }
        }
    }

    @Test
    void oneInstancePerRelativeError() {
        assertThat(LogBuckets.of(0.001)).isSameAs(LogBuckets.of(0.001));
        assertThat(LogBuckets.of(0.001)).isNotSameAs(LogBuckets.of(0.01));
    }
}
