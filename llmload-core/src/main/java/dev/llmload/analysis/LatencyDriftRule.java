package dev.llmload.analysis;

import dev.llmload.note.Note;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.DoubleStream;

/**
 * {@code latency_drift}: the TTFT or E2E p50 of the succeeded measured requests, in order of
 * intended send, shows a trend ({@link NoteDetector#trend}: the last third's p50 above both
 * 1.5 times and 20 ms more than the first third's). The run did not reach a steady state, so its
 * percentiles mix a transient with whatever followed.
 */
final class LatencyDriftRule implements NoteRule {

    static final String KIND = "latency_drift";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        RequestTimes times = run.times();
        int[] succeeded = Arrays.stream(run.measured()).filter(times::succeeded).toArray();
        List<String> evidence = new ArrayList<>();
        drift("TTFT", Arrays.stream(succeeded).mapToDouble(times::ttftMs), evidence);
        drift("E2E latency", Arrays.stream(succeeded).mapToDouble(times::e2eMs), evidence);
        if (evidence.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Note(
                KIND,
                String.join("; ", evidence)
                        + " (successful requests in order of intended send): the run did not reach a steady state"));
    }

    private static void drift(String name, DoubleStream valuesMs, List<String> evidence) {
        double[] thirds =
                NoteDetector.trend(valuesMs.filter(v -> !Double.isNaN(v)).toArray());
        if (thirds != null) {
            evidence.add(String.format(
                    Locale.ROOT,
                    "%s p50 rose from %s in the first third of the requests to %s in " + "the last",
                    name,
                    NoteText.ms(thirds[0]),
                    NoteText.ms(thirds[1])));
        }
    }
}
