package dev.llmload.analysis;

import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code rate_limited}: any measured request was answered HTTP 429 (or filed as rate limited).
 * Its latencies are not the server's service: a reader must know how many, when, and what the
 * server asked for ({@code Retry-After}) to judge whether the load was above a quota rather than
 * above what the server can serve. Counted as the records stream past ({@link Count}).
 */
final class RateLimitedRule implements NoteRule {

    static final String KIND = "rate_limited";
    static final int HTTP_TOO_MANY_REQUESTS = 429;
    /**
     * Distinct Retry-After values counted; a value first seen after this many is left out of the
     * list (the requests still count). The header is the server's, so the values kept are capped.
     */
    static final int MAX_RETRY_AFTER_VALUES = 1000;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        Count count = run.tally().rateLimited;
        if (count.limited == 0) {
            return Optional.empty();
        }
        int measured = run.measured().length;
        // Listed as they first came in order of intended send (the order of equal counts).
        List<Map.Entry<String, long[]>> firstSeen = new ArrayList<>(count.retryAfter.entrySet());
        firstSeen.sort(Comparator.<Map.Entry<String, long[]>>comparingLong(e -> e.getValue()[1])
                .thenComparingLong(e -> e.getValue()[2]));
        Map<String, Long> retryAfterCounts = new LinkedHashMap<>();
        firstSeen.forEach(e -> retryAfterCounts.put(e.getKey(), e.getValue()[0]));
        String retry = retryAfterCounts.isEmpty()
                ? "no Retry-After header"
                : "Retry-After " + NoteText.listCounts(retryAfterCounts, " ×");
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "%d of %d requests (%s) were rate limited (HTTP 429) between t=%s and t=%s; %s",
                        count.limited,
                        measured,
                        NoteText.percent(count.limited, measured),
                        NoteText.seconds(count.firstEndNanos, run.startNanos()),
                        NoteText.seconds(count.lastEndNanos, run.startNanos()),
                        retry)));
    }

    /**
     * The rate-limited measured requests: their count, the first and last end, and per distinct
     * Retry-After value its count and its first request. Bounded; owned by the {@link
     * NoteDetector.Tally}'s thread.
     */
    static final class Count {

        private long limited;
        private long firstEndNanos = Long.MAX_VALUE;
        private long lastEndNanos = Long.MIN_VALUE;
        /** Per Retry-After value: {count, intended send of its first, place of its first}. */
        private final Map<String, long[]> retryAfter = new LinkedHashMap<>();

        /** @param position the record's place in the run's records, which orders equal intended sends */
        void add(RequestRecord record, long position) {
            boolean limitedClass = record.outcome() instanceof Outcome.Failure failure
                    && failure.failureClass() == FailureClass.RATE_LIMITED;
            if (record.httpStatus() != HTTP_TOO_MANY_REQUESTS && !limitedClass) {
                return;
            }
            long end = record.timings().endNanos();
            limited++;
            firstEndNanos = Math.min(firstEndNanos, end);
            lastEndNanos = Math.max(lastEndNanos, end);
            if (record.retryAfter() != null
                    && (retryAfter.size() < MAX_RETRY_AFTER_VALUES || retryAfter.containsKey(record.retryAfter()))) {
                long[] entry = retryAfter.computeIfAbsent(record.retryAfter(), v -> new long[] {0, Long.MAX_VALUE, 0});
                entry[0]++;
                long intended = record.timings().intendedSendNanos();
                if (NoteDetector.Tally.earlier(intended, position, entry[1], entry[2])) {
                    entry[1] = intended;
                    entry[2] = position;
                }
            }
        }
    }
}
