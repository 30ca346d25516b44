package dev.llmload.config;

import dev.llmload.workload.DatasetException;
import dev.llmload.workload.length.LengthDistribution;

/**
 * A length distribution as written ({@code 512}, {@code uniform:256:768}) and as sampled, with a
 * range ratio already applied; the text is what the report records.
 */
public record Lengths(String text, LengthDistribution distribution) {

    public Lengths {
        if (text == null || distribution == null) {
            throw new ConfigException("a length needs its text and its distribution");
        }
    }

    /** Two lengths are the same when written the same (a histogram file's distribution has no value equality). */
    @Override
    public boolean equals(Object other) {
        return other instanceof Lengths that && text.equals(that.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }

    /** {@code text} read for {@code option}; null stays null. */
    public static Lengths parse(String option, String text) {
        if (text == null) {
            return null;
        }
        try {
            return new Lengths(text, ConfigException.parsing(option, () -> LengthDistribution.parse(text)));
        } catch (DatasetException e) {
            throw new ConfigException(option + ": " + e.getMessage()); // a file: histogram that does not read
        }
    }

    /**
     * {@code text} with vLLM's {@code --random-range-ratio}: a fixed length L becomes uniform on
     * [L(1−R), L(1+R)]; a ratio on any other distribution is refused.
     */
    static Lengths parse(String option, String text, Double rangeRatio) {
        Lengths lengths = parse(option, text);
        if (lengths == null || rangeRatio == null || !(rangeRatio > 0)) {
            return lengths;
        }
        if (!(lengths.distribution instanceof LengthDistribution.Fixed fixed)) {
            throw new ConfigException("--range-ratio applies to a fixed length, not '" + text + "'");
        }
        return new Lengths(
                text,
                ConfigException.parsing(
                        "--range-ratio", () -> LengthDistribution.withRangeRatio(fixed.length(), rangeRatio)));
    }
}
