package dev.llmload.workload.source;

import java.util.Locale;

/**
 * Shared prompt prefixes, to exercise a server's prefix cache: {@code count} distinct prefixes of
 * exactly {@code tokens} tokens each, one of which starts every synthetic prompt, chosen by
 * {@code assignment}. The prefix comes in addition to the sampled input length, as with vLLM's
 * {@code --random-prefix-len}: a request's input is prefix tokens + its own tokens.
 */
public record SharedPrefixes(int count, int tokens, Assignment assignment) {

    public SharedPrefixes {
        if (count < 1 || tokens < 1) {
            throw new IllegalArgumentException(
                    "shared prefixes need count ≥ 1 and tokens ≥ 1, got " + count + " and " + tokens);
        }
    }

    String describe() {
        return count + "x" + tokens + " " + assignment.describe();
    }

    /** How prefixes are assigned to requests. */
    public sealed interface Assignment {

        String describe();

        /**
         * {@code uniform} or {@code zipf:S}.
         *
         * @throws IllegalArgumentException with a one-line message naming the spec
         */
        static Assignment parse(String spec) {
            String s = spec.strip().toLowerCase(Locale.ROOT);
            if (s.equals("uniform")) {
                return new Uniform();
            }
            if (s.startsWith("zipf:")) {
                try {
                    return new Zipf(Double.parseDouble(s.substring("zipf:".length())));
                } catch (IllegalArgumentException e) {
                    // a malformed number or a non-positive exponent, reported below with the spec
                }
            }
            throw new IllegalArgumentException(
                    "bad prefix assignment '" + spec + "': use uniform or zipf:S with S > 0");
        }
    }

    /** Each prefix equally likely. */
    public record Uniform() implements Assignment {
        @Override
        public String describe() {
            return "uniform";
        }
    }

    /** Prefix k (1-based) with probability ∝ 1 / k^s: a few hot prefixes and a long tail. */
    public record Zipf(double s) implements Assignment {
        public Zipf {
            if (!(s > 0) || Double.isInfinite(s)) {
                throw new IllegalArgumentException("zipf exponent " + s + " must be > 0");
            }
        }

        @Override
        public String describe() {
            return "zipf:" + s;
        }
    }
}
