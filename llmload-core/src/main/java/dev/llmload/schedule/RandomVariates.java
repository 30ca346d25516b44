package dev.llmload.schedule;

import java.util.random.RandomGenerator;

/**
 * The random draws the arrival processes need, built only on {@link RandomGenerator#nextLong()}
 * and {@link StrictMath}: the JDK's own {@code nextDouble}, {@code nextExponential} and
 * {@code nextGaussian} are not specified bit for bit, and {@code Math} may differ by an ulp
 * between platforms, so this is what makes one seed give one schedule on every JDK.
 */
final class RandomVariates {

    private static final double ULP_53 = 0x1.0p-53;

    private RandomVariates() {}

    /** Uniform on [0, 1), from the 53 high bits of one long. */
    static double uniform(RandomGenerator rng) {
        return (rng.nextLong() >>> 11) * ULP_53;
    }

    /** Uniform on (0, 1]: safe to take the logarithm of. */
    static double uniformPositive(RandomGenerator rng) {
        return ((rng.nextLong() >>> 11) + 1) * ULP_53;
    }

    /** Exponential with mean 1, by inversion. */
    static double exponential(RandomGenerator rng) {
        return -StrictMath.log(uniformPositive(rng));
    }

    /** Standard normal, by Marsaglia's polar method. */
    static double normal(RandomGenerator rng) {
        double u;
        double v;
        double s;
        do {
            u = 2 * uniform(rng) - 1;
            v = 2 * uniform(rng) - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        return u * StrictMath.sqrt(-2 * StrictMath.log(s) / s);
    }

    /**
     * Gamma with the given shape and scale 1, by Marsaglia and Tsang's method (ACM TOMS 26(3),
     * 2000); a shape below 1 is boosted to shape + 1 and scaled back by U^(1/shape).
     */
    static double gamma(double shape, RandomGenerator rng) {
        if (shape < 1) {
            return gamma(shape + 1, rng) * StrictMath.pow(uniformPositive(rng), 1 / shape);
        }
        double d = shape - 1.0 / 3;
        double c = 1 / StrictMath.sqrt(9 * d);
        while (true) {
            double x = normal(rng);
            double v = 1 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = uniformPositive(rng);
            double xSquared = x * x;
            if (u < 1 - 0.0331 * xSquared * xSquared
                    || StrictMath.log(u) < 0.5 * xSquared + d * (1 - v + StrictMath.log(v))) {
                return d * v;
            }
        }
    }
}
