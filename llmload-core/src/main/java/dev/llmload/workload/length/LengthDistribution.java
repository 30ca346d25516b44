package dev.llmload.workload.length;

import dev.llmload.workload.DatasetException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * A distribution of token counts (input or output lengths), always sampling integers ≥ 1.
 *
 * <p>Specs, as given on the command line:
 * <ul>
 *   <li>{@code 512}: always 512;
 *   <li>{@code uniform:MIN:MAX}: every integer in [MIN, MAX] equally likely;
 *   <li>{@code normal:MEAN:STD}: Gaussian, rounded, values below 1 become 1 (so with a large STD
 *       the realised mean is a little above MEAN);
 *   <li>{@code lognormal:MEAN:STD}: log-normal whose <em>lengths</em> have this mean and standard
 *       deviation (not the mean and deviation of the logarithm), rounded, at least 1;
 *   <li>{@code file:PATH}: an empirical histogram, a text file of {@code length,weight} lines
 *       (see {@link Empirical}).
 * </ul>
 * {@link #withRangeRatio} gives vLLM's {@code --random-range-ratio} meaning.
 *
 * <p>Samplers are immutable and thread-safe; all randomness comes from the generator passed in.
 */
public sealed interface LengthDistribution {

    int sample(RandomGenerator random);

    /** The spec in canonical form, for reports, e.g. {@code uniform:256:768}. */
    String describe();

    /**
     * The mean the spec asks for, for reports: exact for fixed, uniform, file and range-ratio
     * distributions; for normal and log-normal the parameter, before rounding and clipping to 1.
     */
    double mean();

    /**
     * Parses a spec.
     *
     * @throws IllegalArgumentException with a one-line message naming the spec when it is malformed
     * @throws DatasetException when a {@code file:} histogram cannot be read or is malformed
     */
    static LengthDistribution parse(String spec) {
        String s = spec.strip();
        int colon = s.indexOf(':');
        if (colon < 0) {
            return new Fixed(positiveInt(spec, s));
        }
        String kind = s.substring(0, colon).toLowerCase(Locale.ROOT);
        String rest = s.substring(colon + 1);
        if (kind.equals("file")) {
            if (rest.isBlank()) {
                throw bad(spec, "expected file:PATH");
            }
            return Empirical.load(Path.of(rest));
        }
        String[] args = rest.split(":", -1);
        if (args.length != 2) {
            throw bad(spec, "expected " + kind + ":A:B");
        }
        return switch (kind) {
            case "uniform" -> {
                int min = positiveInt(spec, args[0]);
                int max = positiveInt(spec, args[1]);
                if (max < min) {
                    throw bad(spec, "MAX is below MIN");
                }
                yield new Uniform(min, max);
            }
            case "normal" -> new Normal(positiveNumber(spec, args[0]), nonNegativeNumber(spec, args[1]));
            case "lognormal" -> new LogNormal(positiveNumber(spec, args[0]), nonNegativeNumber(spec, args[1]));
            default ->
                throw bad(spec, "unknown kind '" + kind + "' (use a number, uniform, normal, lognormal or file)");
        };
    }

    /**
     * vLLM's {@code --random-range-ratio}: a uniform integer in
     * [⌊length·(1 − ratio)⌋, ⌈length·(1 + ratio)⌉], never below 1. Ratio 0 is the fixed length.
     *
     * @throws IllegalArgumentException when length < 1 or ratio is outside [0, 1)
     */
    static LengthDistribution withRangeRatio(int length, double ratio) {
        if (length < 1) {
            throw new IllegalArgumentException("length " + length + " must be at least 1");
        }
        if (!(ratio >= 0 && ratio < 1)) {
            throw new IllegalArgumentException("range ratio " + ratio + " must be in [0, 1)");
        }
        int min = Math.max(1, (int) Math.floor(length * (1 - ratio)));
        int max = (int) Math.ceil(length * (1 + ratio));
        return min == max ? new Fixed(length) : new Uniform(min, max);
    }

    /** Always the same length. */
    record Fixed(int length) implements LengthDistribution {
        public Fixed {
            requirePositive(length);
        }

        @Override
        public int sample(RandomGenerator random) {
            return length;
        }

        @Override
        public String describe() {
            return Integer.toString(length);
        }

        @Override
        public double mean() {
            return length;
        }
    }

    /** Every integer in [min, max] equally likely. */
    record Uniform(int min, int max) implements LengthDistribution {
        public Uniform {
            requirePositive(min);
            if (max < min) {
                throw new IllegalArgumentException("uniform max " + max + " is below min " + min);
            }
        }

        @Override
        public int sample(RandomGenerator random) {
            return min == max ? min : random.nextInt(min, max + 1);
        }

        @Override
        public String describe() {
            return "uniform:" + min + ":" + max;
        }

        @Override
        public double mean() {
            return (min + (double) max) / 2;
        }
    }

    /** Gaussian lengths, rounded, clipped to at least 1. */
    record Normal(double mean, double std) implements LengthDistribution {
        public Normal {
            requireMeanAndStd(mean, std);
        }

        @Override
        public int sample(RandomGenerator random) {
            return clip(mean + std * random.nextGaussian());
        }

        @Override
        public String describe() {
            return "normal:" + number(mean) + ":" + number(std);
        }
    }

    /**
     * Log-normal lengths with the given mean and standard deviation of the lengths themselves:
     * σ² = ln(1 + std²/mean²) and μ = ln(mean) − σ²/2 for the underlying normal. Rounded and
     * clipped to at least 1. Long right tail, like real prompt and answer lengths.
     */
    record LogNormal(double mean, double std) implements LengthDistribution {
        public LogNormal {
            requireMeanAndStd(mean, std);
        }

        @Override
        public int sample(RandomGenerator random) {
            double sigma2 = Math.log1p(std * std / (mean * mean));
            double mu = Math.log(mean) - sigma2 / 2;
            return clip(Math.exp(mu + Math.sqrt(sigma2) * random.nextGaussian()));
        }

        @Override
        public String describe() {
            return "lognormal:" + number(mean) + ":" + number(std);
        }
    }

    /**
     * An empirical histogram read from a text file: one {@code length,weight} pair per line,
     * length an integer ≥ 1 and weight a non-negative number (a count or a probability; they are
     * normalised). Blank lines, lines starting with {@code #} and a first line that is the header
     * {@code length,weight} are ignored. A length is drawn with probability weight / Σ weights.
     */
    final class Empirical implements LengthDistribution {

        private final String source;
        private final int[] lengths;
        private final double[] cumulative;

        private Empirical(String source, int[] lengths, double[] cumulative) {
            this.source = source;
            this.lengths = lengths;
            this.cumulative = cumulative;
        }

        /**
         * Reads a histogram file.
         *
         * @throws DatasetException naming the file and line when it cannot be read or is malformed
         */
        public static Empirical load(Path file) {
            List<Integer> lengthsRead = new ArrayList<>();
            List<Double> weights = new ArrayList<>();
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                String line;
                long number = 0;
                while ((line = reader.readLine()) != null) {
                    number++;
                    String text = line.strip();
                    if (text.isEmpty()
                            || text.startsWith("#")
                            || (number == 1 && text.replace(" ", "").equalsIgnoreCase("length,weight"))) {
                        continue;
                    }
                    String[] fields = text.split(",", -1);
                    if (fields.length != 2) {
                        throw DatasetException.at(file, number, "expected length,weight but found '" + text + "'");
                    }
                    int length;
                    double weight;
                    try {
                        length = Integer.parseInt(fields[0].strip());
                        weight = Double.parseDouble(fields[1].strip());
                    } catch (NumberFormatException e) {
                        throw DatasetException.at(file, number, "expected length,weight but found '" + text + "'");
                    }
                    if (length < 1) {
                        throw DatasetException.at(file, number, "length " + length + " must be at least 1");
                    }
                    if (!(weight >= 0) || Double.isInfinite(weight)) {
                        throw DatasetException.at(
                                file, number, "weight " + fields[1].strip() + " must be a number ≥ 0");
                    }
                    if (weight > 0) {
                        lengthsRead.add(length);
                        weights.add(weight);
                    }
                }
            } catch (IOException e) {
                throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
            }
            double total = weights.stream().mapToDouble(Double::doubleValue).sum();
            if (!(total > 0)) {
                throw DatasetException.in(file, "empty histogram (no length with a positive weight)");
            }
            int[] lengths = new int[lengthsRead.size()];
            double[] cumulative = new double[lengths.length];
            double sum = 0;
            for (int i = 0; i < lengths.length; i++) {
                lengths[i] = lengthsRead.get(i);
                sum += weights.get(i);
                cumulative[i] = sum / total;
            }
            cumulative[lengths.length - 1] = 1.0;
            return new Empirical(file.toString(), lengths, cumulative);
        }

        @Override
        public int sample(RandomGenerator random) {
            // Bin i covers [cumulative[i-1], cumulative[i]); binarySearch gives -(insertion point) - 1
            // when u is absent, which is the first bin whose cumulative exceeds u.
            int i = Arrays.binarySearch(cumulative, random.nextDouble());
            return lengths[Math.min(i >= 0 ? i + 1 : -i - 1, lengths.length - 1)];
        }

        @Override
        public String describe() {
            return "file:" + source;
        }

        @Override
        public double mean() {
            double mean = 0;
            double previous = 0;
            for (int i = 0; i < lengths.length; i++) {
                mean += lengths[i] * (cumulative[i] - previous);
                previous = cumulative[i];
            }
            return mean;
        }

        /** The lengths and their probabilities, in file order, e.g. for the report or a content hash. */
        public String histogram() {
            StringBuilder text = new StringBuilder();
            double previous = 0;
            for (int i = 0; i < lengths.length; i++) {
                text.append(lengths[i])
                        .append(',')
                        .append(cumulative[i] - previous)
                        .append('\n');
                previous = cumulative[i];
            }
            return text.toString();
        }
    }

    private static int clip(double value) {
        double rounded = Math.rint(value);
        return rounded < 1 ? 1 : rounded >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) rounded;
    }

    private static void requireMeanAndStd(double mean, double std) {
        if (!(mean > 0) || !(std >= 0) || Double.isInfinite(mean) || Double.isInfinite(std)) {
            throw new IllegalArgumentException("mean " + mean + " must be > 0 and std " + std + " ≥ 0");
        }
    }

    private static void requirePositive(int length) {
        if (length < 1) {
            throw new IllegalArgumentException("length " + length + " must be at least 1");
        }
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value)
                : Double.toString(value);
    }

    private static int positiveInt(String spec, String text) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with the whole spec
        }
        throw bad(spec, "'" + text.strip() + "' is not a whole number ≥ 1");
    }

    private static double positiveNumber(String spec, String text) {
        double value = number(spec, text);
        if (!(value > 0)) {
            throw bad(spec, "mean must be > 0");
        }
        return value;
    }

    private static double nonNegativeNumber(String spec, String text) {
        double value = number(spec, text);
        if (!(value >= 0)) {
            throw bad(spec, "std must be ≥ 0");
        }
        return value;
    }

    private static double number(String spec, String text) {
        try {
            double value = Double.parseDouble(text.strip());
            if (Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with the whole spec
        }
        throw bad(spec, "'" + text.strip() + "' is not a number");
    }

    private static IllegalArgumentException bad(String spec, String why) {
        return new IllegalArgumentException("bad length distribution '" + spec + "': " + why
                + " (use 512, uniform:MIN:MAX, normal:MEAN:STD, lognormal:MEAN:STD or file:PATH)");
    }
}
