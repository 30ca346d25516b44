package dev.llmload.segment;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Segment {@code index} of {@code count}: the part of one run that one host sends when the run is
 * spread over {@code count} hosts. Index 0 to count − 1, so that a Kubernetes Indexed Job's
 * {@code JOB_COMPLETION_INDEX} is the index as it is.
 *
 * <p>Two ways of dividing are offered, and they agree: a total (closed-loop concurrency, a request
 * count, {@code --max-concurrency}) is divided by {@link #share}, and numbered units (the requests
 * or sessions of a schedule) are dealt by {@link #owns}, unit k to segment k mod count. The number
 * of units of 0..total−1 that a segment owns is exactly its share of total, so a closed loop that
 * sends its share of {@code --num-requests} sends the indexes it owns.
 *
 * @param index this segment, 0 ≤ index &lt; count
 * @param count the number of segments, at least 1
 */
public record Segment(int index, int count) {

    /** The variable in which a Kubernetes Indexed Job gives each pod its index. */
    public static final String INDEX_ENV = "JOB_COMPLETION_INDEX";

    private static final Pattern FORM = Pattern.compile("(\\d{1,9}|auto)/(\\d{1,9})");

    public Segment {
        if (count < 1) {
            throw new IllegalArgumentException("a run has at least 1 segment, not " + count);
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("segment " + index + "/" + count + ": the index must be 0 to "
                    + (count - 1) + " (segments are numbered from 0)");
        }
    }

    /** The whole run as one segment. */
    public static Segment whole() {
        return new Segment(0, 1);
    }

    /**
     * Reads {@code I/N}, or {@code auto/N} with I taken from {@link #INDEX_ENV} in {@code env}.
     *
     * @param env the process environment ({@code System.getenv()}), a parameter so that it can be given
     * @throws IllegalArgumentException with a one-line reason for text that is neither form, an index
     *                                  outside 0..N−1, or a missing or malformed index variable
     */
    public static Segment parse(String text, Map<String, String> env) {
        Matcher form = FORM.matcher(text.strip());
        if (!form.matches()) {
            throw new IllegalArgumentException("not a segment: '" + text
                    + "' (give I/N with 0 <= I < N, e.g. 0/3, or auto/N to read I from " + INDEX_ENV + ")");
        }
        int count = Integer.parseInt(form.group(2));
        if (!form.group(1).equals("auto")) {
            return new Segment(Integer.parseInt(form.group(1)), count);
        }
        String fromEnv = env.get(INDEX_ENV);
        if (fromEnv == null || fromEnv.isBlank()) {
            throw new IllegalArgumentException("segment '" + text + "' takes its index from " + INDEX_ENV
                    + ", which is not set (a Kubernetes Indexed Job sets it; elsewhere give I/N)");
        }
        if (!fromEnv.strip().matches("\\d{1,9}")) {
            throw new IllegalArgumentException(
                    INDEX_ENV + "='" + fromEnv + "' is not a segment index (0 to " + (count - 1) + ")");
        }
        int index = Integer.parseInt(fromEnv.strip());
        if (index >= count) {
            throw new IllegalArgumentException(INDEX_ENV + "=" + index + " is outside segment '" + text
                    + "': the index must be 0 to " + (count - 1) + "; the Job's completions and N differ");
        }
        return new Segment(index, count);
    }

    /**
     * This segment's part of {@code total}: total / count, plus one for the first total mod count
     * segments (16 over 3: 6, 5, 5). The shares of all segments add up to total.
     */
    public long share(long total) {
        if (total < 0) {
            throw new IllegalArgumentException("a total to divide must not be negative: " + total);
        }
        return total / count + (index < total % count ? 1 : 0);
    }

    /** The shares of {@code total} over {@code count} segments, segment 0 first: 16 over 3 is [6, 5, 5]. */
    public static long[] split(long total, int count) {
        long[] shares = new long[count];
        for (int i = 0; i < count; i++) {
            shares[i] = new Segment(i, count).share(total);
        }
        return shares;
    }

    /** Whether unit {@code ordinal} (a request index, or a session's number) is this segment's: ordinal mod count. */
    public boolean owns(long ordinal) {
        if (ordinal < 0) {
            throw new IllegalArgumentException("ordinals are not negative: " + ordinal);
        }
        return ordinal % count == index;
    }

    /**
     * The global ordinal of this segment's {@code local}-th unit (0-based): index + local × count.
     * A closed loop, which has no schedule, numbers its requests (or sessions) with it.
     */
    public long ordinal(long local) {
        if (local < 0) {
            throw new IllegalArgumentException("local ordinals are not negative: " + local);
        }
        return Math.addExact(index, Math.multiplyExact(local, count));
    }

    /** The segment as it appears in request ids and directory names: {@code s1of3}. */
    public String label() {
        return "s" + index + "of" + count;
    }

    /** {@code I/N}, as the user writes it. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
