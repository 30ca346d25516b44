package dev.llmload.segment;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request's id in the journal: {@code <run>-<index>} for a run on one host, and
 * {@code <run>-s<I>of<N>-<index>} for segment I of N ({@code bench-s1of3-42}). The index is the
 * request's global index, the same in the segment as in a single run of the same schedule, so
 * the ids of all segments together name the single run's requests with the segment in between.
 *
 * @param run     the run's name, shared by all segments
 * @param segment the segment, or null for a run on one host
 * @param index   the request's global index
 */
public record RequestId(String run, Segment segment, long index) {

    private static final Pattern SEGMENTED = Pattern.compile("s(\\d{1,9})of(\\d{1,9})-(\\d{1,18})");
    private static final Pattern PLAIN = Pattern.compile("\\d{1,18}");

    public RequestId {
        if (run.isEmpty()) {
            throw new IllegalArgumentException("a request id needs a run name");
        }
        if (index < 0) {
            throw new IllegalArgumentException("request indexes are not negative: " + index);
        }
    }

    /** What precedes the index in every id of the run's segment: {@code <run>-} or {@code <run>-s1of3-}. */
    public static String prefix(String run, Segment segment) {
        return segment == null ? run + "-" : run + "-" + segment.label() + "-";
    }

    /** The id as written in the journal. */
    public String format() {
        return prefix(run, segment) + index;
    }

    /**
     * Reads an id of run {@code run}. The run name is given rather than guessed because a run's
     * name may itself end in something that looks like a segment.
     *
     * @throws IllegalArgumentException with a one-line reason for an id of another run or of neither form
     */
    public static RequestId parse(String id, String run) {
        if (!id.startsWith(run + "-")) {
            throw new IllegalArgumentException("request id '" + id + "' is not of run '" + run + "'");
        }
        String rest = id.substring(run.length() + 1);
        if (PLAIN.matcher(rest).matches()) {
            return new RequestId(run, null, Long.parseLong(rest));
        }
        Matcher segmented = SEGMENTED.matcher(rest);
        if (!segmented.matches()) {
            throw new IllegalArgumentException(
                    "request id '" + id + "' is neither " + run + "-<index> nor " + run + "-s<I>of<N>-<index>");
        }
        Segment segment;
        try {
            segment = new Segment(Integer.parseInt(segmented.group(1)), Integer.parseInt(segmented.group(2)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("request id '" + id + "': " + e.getMessage());
        }
        return new RequestId(run, segment, Long.parseLong(segmented.group(3)));
    }

    @Override
    public String toString() {
        return format();
    }
}
