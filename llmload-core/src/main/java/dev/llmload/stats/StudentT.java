package dev.llmload.stats;

/**
 * Student's t distribution for any positive, also fractional, number of degrees of freedom: the
 * fractional ones are what Welch's interval of a difference of two means needs. The distribution
 * function comes from the regularized incomplete beta function, evaluated by its continued
 * fraction; the quantile by bisection on it. Accurate to about 1e-9. Pure.
 */
public final class StudentT {

    private static final double EPSILON = 1e-15;
    private static final double TINY = 1e-300;

    private StudentT() {}

    /**
     * The two-sided quantile: the t beyond which each tail holds {@code (1 − confidence) / 2}, e.g.
     * 4.3027 for 0.95 and 2 degrees of freedom.
     */
    public static double twoSided(double confidence, double degrees) {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be between 0 and 1, got " + confidence);
        }
        return quantile((1 + confidence) / 2, degrees);
    }

    /** The t with {@code cdf(t) = p}, for p from 0.5 (t = 0) to below 1. */
    static double quantile(double p, double degrees) {
        if (!(degrees > 0) || Double.isInfinite(degrees)) {
            throw new IllegalArgumentException("degrees of freedom must be positive, got " + degrees);
        }
        if (!(p >= 0.5 && p < 1)) {
            throw new IllegalArgumentException("p must be in [0.5, 1), got " + p);
        }
        double low = 0;
        double high = 1;
        while (cdf(high, degrees) < p) {
            low = high;
            high *= 2;
        }
        for (int i = 0; i < 200 && high - low > 1e-12 * high; i++) {
            double middle = (low + high) / 2;
            if (cdf(middle, degrees) < p) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return (low + high) / 2;
    }

    /** P(T ≤ t). */
    static double cdf(double t, double degrees) {
        double tail = 0.5 * regularizedBeta(degrees / (degrees + t * t), degrees / 2, 0.5);
        return t >= 0 ? 1 - tail : tail;
    }

    /** I_x(a, b), by the continued fraction on the side of x where it converges fast. */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        if (x > (a + 1) / (a + b + 2)) {
            return 1 - regularizedBeta(1 - x, b, a);
        }
        double front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b)) / a;
        return front * betaFraction(x, a, b);
    }

    /** The continued fraction of I_x(a, b), by the modified Lentz method. */
    private static double betaFraction(double x, double a, double b) {
        double c = 1;
        double d = nonZero(1 - (a + b) * x / (a + 1));
        d = 1 / d;
        double fraction = d;
        for (int m = 1; m <= 10_000; m++) {
            int m2 = 2 * m;
            double even = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 / nonZero(1 + even * d);
            c = nonZero(1 + even / c);
            fraction *= d * c;
            double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 / nonZero(1 + odd * d);
            c = nonZero(1 + odd / c);
            double step = d * c;
            fraction *= step;
            if (Math.abs(step - 1) < EPSILON) {
                break;
            }
        }
        return fraction;
    }

    private static double nonZero(double value) {
        return Math.abs(value) < TINY ? TINY : value;
    }

    private static double logBeta(double a, double b) {
        return logGamma(a) + logGamma(b) - logGamma(a + b);
    }

    /** ln Γ(x) for x > 0: Stirling's series at x + 8 or more, brought down by Γ(x + 1) = x Γ(x). */
    static double logGamma(double x) {
        double shift = 0;
        double z = x;
        while (z < 8) {
            shift += Math.log(z);
            z += 1;
        }
        double inverse = 1 / z;
        double inverse2 = inverse * inverse;
        double series = inverse * (1.0 / 12 - inverse2 * (1.0 / 360 - inverse2 * (1.0 / 1260 - inverse2 / 1680)));
        return (z - 0.5) * Math.log(z) - z + 0.5 * Math.log(2 * Math.PI) + series - shift;
    }
}
