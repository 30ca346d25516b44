package dev.llmload.junit;

import dev.llmload.metrics.RunResults;
import dev.llmload.stats.Summary;
import java.util.function.Function;

/** The per-request latencies a {@link LatencyGate} can limit, as {@code report.json}'s results name them. */
public enum Latency {
    /** Time to first token: send to the first token-bearing event. */
    TTFT("TTFT", "ttft_ms", RunResults::ttftMs),
    /** Inter-token latency: the gaps between token-bearing events. */
    ITL("ITL", "itl_ms", RunResults::itlMs),
    /** Time per output token after the first. */
    TPOT("TPOT", "tpot_ms", RunResults::tpotMs),
    /** End-to-end latency: send to the end of the response. */
    E2E("E2E latency", "e2e_latency_ms", RunResults::e2eLatencyMs);

    private final String label;
    private final String reportKey;
    private final Function<RunResults, Summary> summary;

    Latency(String label, String reportKey, Function<RunResults, Summary> summary) {
        this.label = label;
        this.reportKey = reportKey;
        this.summary = summary;
    }

    /** How failure messages name it, e.g. {@code TTFT}. */
    public String label() {
        return label;
    }

    /** Its key under {@code results} in {@code report.json}, e.g. {@code ttft_ms}. */
    public String reportKey() {
        return reportKey;
    }

    Summary of(RunResults results) {
        return summary.apply(results);
    }
}
