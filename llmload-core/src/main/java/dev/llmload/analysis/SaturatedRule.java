package dev.llmload.analysis;

import dev.llmload.note.Note;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code saturated}: the server could not keep up with an open loop or a trace, by the rule of
 * {@link Saturation} (the backlog at the last arrival and over the last third of the arrivals
 * exceed twice what a server keeping up carries). A reader must know, because every latency of
 * such a run grows with the run's length: it describes the run, not the server. The note carries
 * the figures the verdict rests on; the thresholds are {@link Saturation}'s.
 */
final class SaturatedRule implements NoteRule {

    static final String KIND = "saturated";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        Saturation s = run.saturation();
        if (s == null || !Boolean.TRUE.equals(s.saturated())) {
            return Optional.empty();
        }
        String offered = s.offeredRequestRate() == null
                ? ""
                : String.format(Locale.ROOT, "offered %.2f req/s, ", s.offeredRequestRate());
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "%sscheduled %.2f req/s over %.1f s of arrivals, achieved %.2f req/s; at the last arrival %d requests "
                                + "were unfinished (%d in flight, %d queued at the client) where a server keeping up would "
                                + "hold about %.1f (its starting latency %.3f s × the rate), and %.1f on average over the last "
                                + "third of the arrivals; the backlog took %.1f s to drain after the last arrival: more load "
                                + "was offered than the server could serve, so its latencies grow with the run's length",
                        offered,
                        s.scheduledRequestRate(),
                        s.arrivalWindowS(),
                        s.achievedRequestRate(),
                        s.backlog(),
                        s.backlogInFlight(),
                        s.backlogQueued(),
                        s.steadyBacklog(),
                        s.startLatencyS(),
                        s.lateBacklogMean(),
                        s.drainS())));
    }
}
