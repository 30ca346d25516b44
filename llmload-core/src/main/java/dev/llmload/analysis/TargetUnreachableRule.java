package dev.llmload.analysis;

import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.RequestTimings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code target_unreachable}: periods in which every request sent failed to connect, at least
 * {@link #UNREACHABLE_MIN_FAILURES} in a row by send time: the target went away at the first such
 * send and came back at the next request that got any answer (or never, in this run). One lost
 * connection is an error; a run of them is an outage, which a reader must tell from a slow server.
 * Requests llmload cancelled itself say nothing about the target and are left out.
 */
final class TargetUnreachableRule implements NoteRule {

    static final String KIND = "target_unreachable";
    /** Connection failures in a row (by send time) that mean the target went away, not one lost connection. */
    static final int UNREACHABLE_MIN_FAILURES = 3;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        RequestTimes times = run.times();
        long start = run.startNanos();
        int[] sent = Arrays.stream(run.measured())
                .filter(i ->
                        times.sentNanos(i) != RequestTimings.NEVER && times.failureClass(i) != FailureClass.CANCELLED)
                .toArray();
        List<String> periods = new ArrayList<>();
        long failures = 0;
        int inRow = 0;
        long wentAwayNanos = 0;
        for (int i : times.bySent(sent)) {
            if (times.failureClass(i) == FailureClass.CONNECT) {
                if (inRow++ == 0) {
                    wentAwayNanos = times.sentNanos(i);
                }
                continue;
            }
            if (inRow >= UNREACHABLE_MIN_FAILURES) {
                failures += inRow;
                periods.add(String.format(
                        Locale.ROOT,
                        "from t=%s to t=%s (%d connection failures)",
                        NoteText.seconds(wentAwayNanos, start),
                        NoteText.seconds(times.sentNanos(i), start),
                        inRow));
            }
            inRow = 0;
        }
        if (inRow >= UNREACHABLE_MIN_FAILURES) {
            failures += inRow;
            periods.add(String.format(
                    Locale.ROOT,
                    "from t=%s to the end of the run (%d connection failures)",
                    NoteText.seconds(wentAwayNanos, start),
                    inRow));
        }
        if (periods.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "the target could not be reached %s; %d requests failed to connect in all, and a closed loop "
                                + "backed off (50 ms doubling to 2 s) while it was away",
                        String.join(", ", periods.subList(0, Math.min(periods.size(), NoteText.MAX_LISTED_VALUES))),
                        failures)));
    }
}
