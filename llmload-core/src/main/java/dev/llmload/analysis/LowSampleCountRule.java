package dev.llmload.analysis;

import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code low_sample_count}: a tail percentile of TTFT, ITL, TPOT or E2E latency rests on too few
 * samples to mean much: p99 on fewer than 100, p99.9 on fewer than 1,000 (each {@link
 * Percentile#minimumConfidentCount}, the count at which {@link Summary#isLowConfidence} stops).
 * A reader comparing two runs' p99s must know when they are rough estimates.
 */
final class LowSampleCountRule implements NoteRule {

    static final String KIND = "low_sample_count";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        RunResults results = run.results();
        Map<String, Summary> summaries = new LinkedHashMap<>();
        summaries.put("ttft_ms", results.ttftMs());
        summaries.put("itl_ms", results.itlMs());
        summaries.put("tpot_ms", results.tpotMs());
        summaries.put("e2e_latency_ms", results.e2eLatencyMs());
        List<String> evidence = new ArrayList<>();
        // TTFT, TPOT and E2E have one sample a request, so their counts say how many requests to run.
        long requestsNeeded = 0;
        for (Percentile percentile : List.of(Percentile.P99, Percentile.P99_9)) {
            Map<String, Long> few = new LinkedHashMap<>();
            summaries.forEach((name, summary) -> {
                if (!summary.isEmpty() && summary.isLowConfidence(percentile)) {
                    few.put(name, summary.count());
                }
            });
            if (few.keySet().stream().anyMatch(name -> !name.equals("itl_ms"))) {
                requestsNeeded = Math.max(requestsNeeded, percentile.minimumConfidentCount());
            }
            if (!few.isEmpty()) {
                evidence.add(String.format(
                        Locale.ROOT,
                        "%s rests on fewer than %,d samples for %s",
                        percentile.key(),
                        percentile.minimumConfidentCount(),
                        NoteText.listCounts(few, " ")));
            }
        }
        if (evidence.isEmpty()) {
            return Optional.empty();
        }
        String remedy = requestsNeeded == 0
                ? "run more requests"
                : String.format(
                        Locale.ROOT,
                        "measure at least %,d requests (e.g. --num-requests %d, warm-up not counted)",
                        requestsNeeded,
                        requestsNeeded);
        return Optional.of(new Note(
                KIND, String.join("; ", evidence) + ": read those percentiles as rough estimates, or " + remedy));
    }
}
