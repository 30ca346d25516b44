package dev.llmload.sweep;

import java.util.ArrayList;
import java.util.List;

/** The load values of a sweep as written on the command line, and the rates of an automatic sweep. Pure. */
public final class SweepValues {

    /** A range may not expand to more points than this: a typo such as {@code 1:1000:0.01} is refused, not run. */
    static final int MAX_VALUES = 1000;

    private SweepValues() {}

    /**
     * Parses {@code START:STOP:STEP} (STOP included when the steps reach it) or a comma-separated
     * list {@code 1,2,4}; every value must be positive.
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static List<Double> parse(String text) {
        String[] range = text.split(":", -1);
        List<Double> values = new ArrayList<>();
        if (range.length == 3) {
            double start = number(text, range[0]);
            double stop = number(text, range[1]);
            double step = number(text, range[2]);
            if (stop < start) {
                throw new IllegalArgumentException("'" + text + "': STOP is below START");
            }
            // Counting steps, not adding them up, keeps 0.1 steps from drifting past STOP.
            long steps = (long) Math.floor((stop - start) / step + 1e-9);
            if (steps + 1 > MAX_VALUES) {
                throw new IllegalArgumentException("'" + text + "' expands to more than " + MAX_VALUES + " points");
            }
            for (long i = 0; i <= steps; i++) {
                values.add(start + i * step);
            }
        } else if (range.length == 1) {
            for (String part : text.split(",", -1)) {
                values.add(number(text, part));
            }
        } else {
            throw new IllegalArgumentException("'" + text + "' is neither START:STOP:STEP nor a list such as 1,2,4");
        }
        return List.copyOf(values);
    }

    /**
     * The rates of an automatic sweep, as GuideLLM's sweep profile chooses them: {@code n} rates
     * evenly spaced from the baseline throughput (one request at a time) to the maximum throughput,
     * the baseline left out and the maximum included ({@code linspace(baseline, maximum, n + 1)[1:]}).
     */
    public static List<Double> autoRates(double baseline, double maximum, int n) {
        if (!(baseline > 0) || !(maximum > 0)) {
            throw new IllegalArgumentException("the automatic sweep needs positive throughputs, measured " + baseline
                    + " and " + maximum + " req/s");
        }
        if (n < 1) {
            throw new IllegalArgumentException("--points must be at least 1, got " + n);
        }
        List<Double> rates = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            rates.add(baseline + (maximum - baseline) * i / n);
        }
        return List.copyOf(rates);
    }

    private static double number(String text, String part) {
        double value;
        try {
            value = Double.parseDouble(part.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "': '" + part.trim() + "' is not a number");
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("'" + text + "': " + part.trim() + " must be a positive number");
        }
        return value;
    }
}
