package dev.llmload.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.metrics.RequestMetrics;
import dev.llmload.metrics.RunResults;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.stats.Summary;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;

/**
 * A run as {@code vllm bench serve --save-result --save-detailed} would have written it, so
 * scripts and dashboards built for vLLM's result JSON read llmload runs unchanged. Keys and units
 * are vLLM's: summary latencies in milliseconds ({@code mean_ttft_ms}), per-request {@code ttfts},
 * {@code itls} and {@code latencies} in seconds, {@code request_rate} the string {@code "inf"} when
 * there is no rate (a closed loop). The metrics are llmload's (DESIGN.md §3), which match vLLM's
 * definitions; two deliberate differences: a statistic of no samples is null where vLLM writes 0,
 * and a failed request keeps its partial timings and token count (its {@code errors} entry is
 * non-empty) where vLLM writes zeros. Pure: builds a JSON tree, writes nothing.
 */
public final class VllmExport {

    private static final DateTimeFormatter VLLM_DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final double NANOS_PER_S = 1e9;

    private VllmExport() {}

    /** @param records every record of the run; warm-up requests are left out as vLLM leaves out its warm-up */
    public static ObjectNode toJson(RunReport report, List<RequestRecord> records) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        RunResults results = report.results();
        RunReport.Load load = report.load();
        json.put("date", date(report.run().startedAt()));
        json.put("endpoint_type", report.service().api());
        json.put("backend", backend(report.service().api()));
        json.put("label", (String) null);
        json.put("model_id", report.model().name());
        String tokenizer = report.config() == null ? null : report.config().data().tokenizer();
        json.put("tokenizer_id", tokenizer != null ? tokenizer : report.model().name());
        json.put("num_prompts", results.requests().attempted());
        // vLLM flattens --metadata key=value pairs into top-level keys; never over its own keys.
        if (report.config() != null) {
            report.config().output().metadata().forEach((key, value) -> {
                if (!json.has(key)) {
                    json.put(key, value);
                }
            });
        }
        if (load.requestRate() != null) {
            json.put("request_rate", load.requestRate());
        } else {
            json.put("request_rate", "inf");
        }
        json.put("burstiness", load.burstiness());
        json.put("max_concurrency", load.maxConcurrency() != null ? load.maxConcurrency() : load.concurrency());

        json.put("duration", results.durationS());
        json.put("completed", results.requests().succeeded());
        json.put("failed", results.requests().failed());
        List<RequestRecord> measured = records.stream().filter(r -> !r.warmup())
                .sorted(Comparator.comparingLong(RequestRecord::index)).toList();
        long inputTokens = 0;
        long outputTokens = 0;
        for (RequestRecord record : measured) {
            if (record.succeeded()) {
                inputTokens += record.inputTokens();
                outputTokens += record.outputTokens();
            }
        }
        json.put("total_input_tokens", inputTokens);
        json.put("total_output_tokens", outputTokens);
        json.put("request_throughput", results.requestThroughput());
        json.put("request_goodput", results.goodput() == null ? null : results.goodput().requestGoodput());
        json.put("output_throughput", results.outputTokenThroughput());
        json.put("total_token_throughput", results.totalTokenThroughput());
        // vLLM's ITL is per SSE message, which is llmload's per-event itl_ms.
        putSummary(json, "ttft", results.ttftMs());
        putSummary(json, "tpot", results.tpotMs());
        putSummary(json, "itl", results.itlMs());
        putSummary(json, "e2el", results.e2eLatencyMs());

        ArrayNode inputLens = json.putArray("input_lens");
        ArrayNode outputLens = json.putArray("output_lens");
        ArrayNode ttfts = json.putArray("ttfts");
        ArrayNode itls = json.putArray("itls");
        ArrayNode latencies = json.putArray("latencies");
        ArrayNode texts = json.putArray("generated_texts");
        ArrayNode errors = json.putArray("errors");
        for (RequestRecord record : measured) {
            RequestMetrics metrics = RequestMetrics.of(record);
            inputLens.add(record.inputTokens());
            outputLens.add(record.outputTokens());
            ttfts.add(metrics.ttftMs() == null ? null : metrics.ttftMs() / 1000);
            ArrayNode gaps = itls.addArray();
            long[] times = record.timings().tokenEventNanos();
            for (int i = 1; i < times.length; i++) {
                gaps.add((times[i] - times[i - 1]) / NANOS_PER_S);
            }
            latencies.add(metrics.e2eMs() == null ? null : metrics.e2eMs() / 1000);
            // llmload does not keep the generated text; vLLM's consumers expect the array.
            texts.add("");
            errors.add(record.outcome() instanceof Outcome.Failure failure
                    ? (failure.message() == null ? failure.key() : failure.message()) : "");
        }
        return json;
    }

    /** vLLM's {@code mean_/median_/std_/p99_<metric>_ms}; the median is the p50. */
    private static void putSummary(ObjectNode json, String metric, Summary summary) {
        json.put("mean_" + metric + "_ms", summary.mean());
        json.put("median_" + metric + "_ms", summary.p50());
        json.put("std_" + metric + "_ms", summary.std());
        json.put("p99_" + metric + "_ms", summary.p99());
    }

    /** vLLM's backend names for the two OpenAI APIs. */
    static String backend(String api) {
        if (api == null) {
            return null;
        }
        return switch (api) {
            case "chat" -> "openai-chat";
            case "completions" -> "openai";
            default -> api;
        };
    }

    /** vLLM's {@code %Y%m%d-%H%M%S}, in the run's own local time; null when the start is not ISO-8601. */
    static String date(String startedAt) {
        if (startedAt == null) {
            return null;
        }
        try {
            return VLLM_DATE.format(OffsetDateTime.parse(startedAt));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
