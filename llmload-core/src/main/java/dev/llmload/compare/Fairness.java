package dev.llmload.compare;

import dev.llmload.report.RunReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What makes two runs unfair to compare: different prompts (the dataset's content hash), different
 * requested input or output lengths, a different load model or parameters, or a different API or
 * streaming mode. The model, server, hardware and seed may differ: they are what one compares. Pure.
 */
public final class Fairness {

    private Fairness() {}

    /** The differences of {@code run} from {@code baseline}, one {@code key: baseline vs run} each; empty when fair. */
    public static List<String> differences(RunReport baseline, RunReport run) {
        List<String> differences = new ArrayList<>();
        check(
                differences,
                "data.content_hash",
                baseline.data().contentHash(),
                run.data().contentHash());
        check(
                differences,
                "data.input_tokens.requested",
                baseline.data().inputTokens().requested(),
                run.data().inputTokens().requested());
        check(
                differences,
                "data.output_tokens.requested",
                baseline.data().outputTokens().requested(),
                run.data().outputTokens().requested());
        RunReport.Load a = baseline.load();
        RunReport.Load b = run.load();
        check(differences, "load.mode", a.mode(), b.mode());
        check(differences, "load.concurrency", a.concurrency(), b.concurrency());
        check(differences, "load.request_rate", a.requestRate(), b.requestRate());
        check(differences, "load.arrival", a.arrival(), b.arrival());
        check(differences, "load.burstiness", a.burstiness(), b.burstiness());
        check(differences, "load.max_concurrency", a.maxConcurrency(), b.maxConcurrency());
        check(differences, "load.num_requests", a.numRequests(), b.numRequests());
        check(differences, "load.duration_s", a.durationS(), b.durationS());
        check(differences, "load.warmup", a.warmup(), b.warmup());
        check(
                differences,
                "service.api",
                baseline.service().api(),
                run.service().api());
        check(
                differences,
                "service.streaming",
                baseline.service().streaming(),
                run.service().streaming());
        return differences;
    }

    private static void check(List<String> differences, String key, Object baseline, Object run) {
        if (!Objects.equals(baseline, run)) {
            differences.add(key + ": " + baseline + " vs " + run);
        }
    }
}
