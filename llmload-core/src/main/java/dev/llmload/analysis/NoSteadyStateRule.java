package dev.llmload.analysis;

import dev.llmload.note.Note;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code no_steady_state}: the latency from intended send to end still trended halfway through
 * the arrivals ({@link SteadyState}: MSER-5 finds no plateau before the middle of the run). Every
 * result of such a run describes a transient, not the server's steady state, so the note says how
 * long a run would have to be, or, when the run is also saturated, that no length will do.
 */
final class NoSteadyStateRule implements NoteRule {

    static final String KIND = "no_steady_state";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        SteadyState steady = run.steadyState();
        if (steady == null || steady.reached()) {
            return Optional.empty();
        }
        boolean saturated =
                run.saturation() != null && Boolean.TRUE.equals(run.saturation().saturated());
        String need = saturated
                ? "the run is saturated, so no length will do at this load: lower it"
                : String.format(
                        Locale.ROOT,
                        "a run of at least %d requests%s would be needed",
                        steady.neededRequests(),
                        steady.neededS() == null
                                ? ""
                                : String.format(Locale.ROOT, " (%.1f s of arrivals)", steady.neededS()));
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "the latency from intended send to end still trended halfway through the %.1f s of arrivals "
                                + "(MSER-5 finds no plateau before the middle of the run): every result describes a "
                                + "transient, not the server's steady state; %s",
                        steady.endS(),
                        need)));
    }
}
