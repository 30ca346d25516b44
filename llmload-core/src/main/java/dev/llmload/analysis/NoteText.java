package dev.llmload.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** How the {@link NoteRule}s write their evidence, so every note spells counts, shares and times alike. */
final class NoteText {

    /** The most entries a note lists of one kind (periods, counts); the rest are "...". */
    static final int MAX_LISTED_VALUES = 5;
    /** The most characters of a server's message a note quotes. */
    private static final int MAX_SAMPLE_CHARS = 200;

    private NoteText() {}

    /** "a 3, b 2", at most {@link #MAX_LISTED_VALUES} entries, the largest first. */
    static String listCounts(Map<String, Long> counts, String separator) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        String listed = entries.stream()
                .limit(MAX_LISTED_VALUES)
                .map(e -> e.getKey() + separator + e.getValue())
                .collect(Collectors.joining(", "));
        return entries.size() > MAX_LISTED_VALUES ? listed + ", ..." : listed;
    }

    static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    /** "1.5 s": {@code nanos} as seconds after {@code startNanos}. */
    static String seconds(long nanos, long startNanos) {
        return String.format(Locale.ROOT, "%.1f s", (nanos - startNanos) / 1e9);
    }

    static String ms(double valueMs) {
        return String.format(Locale.ROOT, "%.1f ms", valueMs);
    }

    /** A server's message on one line, cut at {@link #MAX_SAMPLE_CHARS}: the server's text is untrusted. */
    static String truncate(String message) {
        String line = message.replace('\n', ' ');
        return line.length() <= MAX_SAMPLE_CHARS ? line : line.substring(0, MAX_SAMPLE_CHARS) + "...";
    }
}
