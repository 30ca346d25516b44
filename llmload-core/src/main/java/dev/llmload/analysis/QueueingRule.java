package dev.llmload.analysis;

import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code queueing}: measured requests waited at the client before being sent (intended send to
 * send), and that wait grew through the run ({@link NoteDetector#trend}) or is large beside the
 * service latency: p50 queue time over {@link #QUEUE_MIN_MS} and at least
 * {@link #QUEUE_SHARE_OF_LATENCY} of the p50 TTFT (E2E latency when nothing was streamed). More
 * load was offered than was served, so the latencies from send understate what a user waits; the
 * {@code *_from_intended} latencies include the wait.
 */
final class QueueingRule implements NoteRule {

    static final String KIND = "queueing";
    /** A p50 queue time at or below this is noise beside any service latency. */
    static final double QUEUE_MIN_MS = 20;
    /** The share of the p50 TTFT (or E2E latency) at which the p50 queue time matters. */
    static final double QUEUE_SHARE_OF_LATENCY = 0.5;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        RequestTimes times = run.times();
        double[] queueMs = Arrays.stream(run.measured())
                .filter(i -> times.sentNanos(i) >= 0)
                .mapToDouble(times::clientQueueMs)
                .toArray();
        if (queueMs.length == 0) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        double[] thirds = NoteDetector.trend(queueMs);
        if (thirds != null) {
            evidence.add(String.format(
                    Locale.ROOT,
                    "client queue time p50 rose from %s in the first third of the " + "requests to %s in the last",
                    NoteText.ms(thirds[0]),
                    NoteText.ms(thirds[1])));
        }
        double queueP50Ms = NoteDetector.median(queueMs);
        RunResults results = run.results();
        boolean streamed = !results.ttftMs().isEmpty();
        Double latencyP50Ms =
                streamed ? results.ttftMs().p50() : results.e2eLatencyMs().p50();
        if (latencyP50Ms != null && queueP50Ms > QUEUE_MIN_MS && queueP50Ms >= QUEUE_SHARE_OF_LATENCY * latencyP50Ms) {
            evidence.add(String.format(
                    Locale.ROOT,
                    "requests waited a p50 of %s at the client before being sent, " + "beside a p50 %s of %s",
                    NoteText.ms(queueP50Ms),
                    streamed ? "TTFT" : "E2E latency",
                    NoteText.ms(latencyP50Ms)));
        }
        if (evidence.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Note(
                KIND,
                String.join("; ", evidence)
                        + ": more load was offered than was served (see the *_from_intended latencies)"));
    }
}
