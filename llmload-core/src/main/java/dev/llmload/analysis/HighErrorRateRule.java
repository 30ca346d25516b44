package dev.llmload.analysis;

import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code high_error_rate}: more than {@link #HIGH_ERROR_RATE_SHARE} of the attempted measured
 * requests failed. The latencies are of the successes only, so beyond this share they describe a
 * server that turned much of the load away; the note gives the counts per failure class.
 */
final class HighErrorRateRule implements NoteRule {

    static final String KIND = "high_error_rate";
    /** Failed over attempted (0–1) above which the results mostly describe what the server turned away. */
    static final double HIGH_ERROR_RATE_SHARE = 0.05;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        RunResults results = run.results();
        if (results.errorRate() == null || results.errorRate() <= HIGH_ERROR_RATE_SHARE) {
            return Optional.empty();
        }
        Map<String, Long> byClass = new LinkedHashMap<>();
        results.errors().forEach((key, summary) -> byClass.put(key, summary.count()));
        long failed = results.requests().failed();
        long attempted = results.requests().attempted();
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "%d of %d requests failed (%s): %s",
                        failed,
                        attempted,
                        NoteText.percent(failed, attempted),
                        NoteText.listCounts(byClass, " "))));
    }
}
