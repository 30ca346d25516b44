package dev.llmload.analysis;

import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TimeoutKind;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code timeouts}: any measured request timed out. A timed-out request has no latency in the
 * results, so the results alone understate how slow the server was; the note gives the count,
 * the share and which timeout ({@code connect}, {@code first_token}, {@code idle}, {@code total})
 * ended them. Counted as the records stream past ({@link Count}).
 */
final class TimeoutsRule implements NoteRule {

    static final String KIND = "timeouts";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        Count count = run.tally().timeouts;
        if (count.timeouts == 0) {
            return Optional.empty();
        }
        int measured = run.measured().length;
        Map<String, Long> byKind = new LinkedHashMap<>(count.byKind);
        byKind.values().removeIf(c -> c == 0);
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "%d of %d requests (%s) timed out: %s",
                        count.timeouts,
                        measured,
                        NoteText.percent(count.timeouts, measured),
                        NoteText.listCounts(byKind, " "))));
    }

    /** The measured requests that timed out, by kind. Bounded; owned by the {@link NoteDetector.Tally}'s thread. */
    static final class Count {

        private long timeouts;
        /** Every kind, in {@link TimeoutKind}'s order (the order of equal counts), and "unknown" last. */
        private final Map<String, Long> byKind = new LinkedHashMap<>();

        Count() {
            for (TimeoutKind kind : TimeoutKind.values()) {
                byKind.put(kind.key(), 0L);
            }
        }

        void add(RequestRecord record) {
            if (record.outcome() instanceof Outcome.Failure failure && failure.failureClass() == FailureClass.TIMEOUT) {
                timeouts++;
                byKind.merge(
                        failure.timeoutKind() == null
                                ? "unknown"
                                : failure.timeoutKind().key(),
                        1L,
                        Long::sum);
            }
        }
    }
}
