package dev.llmload.report.format;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.config.Load;
import dev.llmload.metrics.RequestMetrics;
import dev.llmload.metrics.RunResults;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.RunReport;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Summary;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A run as {@code vllm bench serve --save-result --save-detailed --percentile-metrics
 * ttft,tpot,itl,e2el --metric-percentiles 50,90,99} would have written it, in the file it would
 * have named, so scripts and dashboards built for vLLM's result JSON read llmload runs unchanged.
 * Keys, their order and units are vLLM's ({@code vllm/benchmarks/serve.py}): summary latencies in
 * milliseconds ({@code mean_ttft_ms}, {@code p90_itl_ms}), per-request {@code ttfts}, {@code itls},
 * {@code latencies}, {@code start_times} and {@code queue_times} in seconds, {@code request_rate}
 * the string {@code "inf"} when there is no rate (a closed loop, which vLLM runs as
 * {@code --request-rate inf --max-concurrency N}).
 *
 * <p>The metrics are llmload's (DESIGN.md §3), which match vLLM's definitions. Deliberate
 * differences, each documented in docs/report.md: a statistic of no samples is null where vLLM
 * writes 0; a failed request keeps its partial timings (its {@code errors} entry is non-empty)
 * where vLLM writes zeros; {@code start_times} count from the run's start where vLLM writes its
 * process's performance counter; {@code max_output_tokens_per_s} counts the tokens each event
 * carried where vLLM counts one per event (the same where every event carries one token).
 * Pure: builds a JSON tree, writes nothing.
 */
public final class VllmExport {

    /** The percentiles written per metric, as {@code --metric-percentiles 50,90,99} writes them. */
    static final List<Percentile> PERCENTILES = List.of(Percentile.P50, Percentile.P90, Percentile.P99);

    private static final DateTimeFormatter VLLM_DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final double NANOS_PER_S = 1e9;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private VllmExport() {}

    /**
     * vLLM's own file name, {@code {backend}-{rate}qps[-concurrency{N}]-{model}-{date}.json}: the
     * rate as Python prints a float ({@code inf}, {@code 10.0}), the model's last path segment.
     */
    public static String fileName(RunReport report) {
        RunReport.Load load = report.load();
        String rate = load.requestRate() == null ? "inf" : Double.toString(load.requestRate());
        Integer maxConcurrency = maxConcurrency(load);
        String model =
                report.model().name() == null ? "unknown" : report.model().name();
        String date = date(report.run().startedAt());
        return backend(report.service().api()) + "-" + rate + "qps"
                + (maxConcurrency == null ? "" : "-concurrency" + maxConcurrency) + "-"
                + model.substring(model.lastIndexOf('/') + 1) + "-" + (date == null ? "unknown" : date) + ".json";
    }

    /** @param records every record of the run; warm-up requests are left out as vLLM leaves out its warm-up */
    public static ObjectNode toJson(RunReport report, List<RequestRecord> records) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        RunResults results = report.results();
        RunReport.Load load = report.load();
        String backend = backend(report.service().api());
        json.put("date", date(report.run().startedAt()));
        json.put("endpoint_type", backend);
        json.put("backend", backend);
        json.put("label", (String) null);
        json.put("model_id", report.model().name());
        String tokenizer =
                report.config() == null ? null : report.config().data().tokenizer();
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
        json.put("burstiness", burstiness(load));
        Integer maxConcurrency = maxConcurrency(load);
        json.put("max_concurrency", maxConcurrency);

        json.put("duration", results.durationS());
        json.put("completed", results.requests().succeeded());
        json.put("failed", results.requests().failed());
        List<RequestRecord> measured = records.stream()
                .filter(r -> !r.warmup())
                .sorted(Comparator.comparingLong(RequestRecord::index))
                .toList();
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
        json.put(
                "request_goodput",
                results.goodput() == null ? null : results.goodput().requestGoodput());
        json.put("output_throughput", results.outputTokenThroughput());
        json.put("total_token_throughput", results.totalTokenThroughput());
        putRequests(json, measured);
        List<RequestRecord> succeeded =
                measured.stream().filter(RequestRecord::succeeded).toList();
        json.put("max_output_tokens_per_s", peakOutputTokensPerSecond(succeeded));
        json.put("max_concurrent_requests", peakConcurrency(succeeded));
        json.put("rtfx", 0.0);

        // vLLM's ITL is per SSE message, which is llmload's per-event itl_ms.
        putSummary(json, "ttft", results.ttftMs());
        putSummary(json, "tpot", results.tpotMs());
        putSummary(json, "itl", results.itlMs());
        putSummary(json, "e2el", results.e2eLatencyMs());
        // vLLM adds the gate's queue when a --max-concurrency gate exists, and the queue-inclusive
        // latency when requests also arrive at a rate.
        if (maxConcurrency != null) {
            putSummary(json, "client_queue_time", results.clientQueueTimeMs());
            if (load.requestRate() != null) {
                putSummary(json, "e2el_including_client_queue", results.e2eFromIntendedMs());
            }
        }
        return json;
    }

    /** The per-request arrays of {@code --save-detailed}, in the order of the requests' indexes. */
    private static void putRequests(ObjectNode json, List<RequestRecord> measured) {
        ArrayNode inputLens = json.putArray("input_lens");
        ArrayNode outputLens = json.putArray("output_lens");
        ArrayNode ttfts = json.putArray("ttfts");
        ArrayNode itls = json.putArray("itls");
        ArrayNode latencies = json.putArray("latencies");
        ArrayNode startTimes = json.putArray("start_times");
        ArrayNode queueTimes = json.putArray("queue_times");
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
            startTimes.add(record.timings().sentNanos() / NANOS_PER_S);
            queueTimes.add((record.timings().sentNanos() - record.timings().intendedSendNanos()) / NANOS_PER_S);
            // llmload does not keep the generated text; vLLM's consumers expect the array.
            texts.add("");
            errors.add(
                    record.outcome() instanceof Outcome.Failure failure
                            ? (failure.message() == null ? failure.key() : failure.message())
                            : "");
        }
    }

    /**
     * vLLM's peak: the output tokens of successful requests in one-second buckets counted from
     * the first successful request's send; the fullest bucket. 0 when none succeeded, as vLLM.
     */
    static double peakOutputTokensPerSecond(List<RequestRecord> succeeded) {
        if (succeeded.isEmpty()) {
            return 0.0;
        }
        long start =
                succeeded.stream().mapToLong(r -> r.timings().sentNanos()).min().orElseThrow();
        long end =
                succeeded.stream().mapToLong(r -> r.timings().endNanos()).max().orElseThrow();
        // ceil(span in s) + 1 buckets, as vLLM sizes them.
        int buckets = (int) ((end - start + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND) + 1;
        long[] tokens = new long[buckets];
        for (RequestRecord record : succeeded) {
            long[] times = record.timings().tokenEventNanos();
            int[] counts = record.tokenEventCounts();
            for (int i = 0; i < times.length; i++) {
                long bucket = (times[i] - start) / NANOS_PER_SECOND;
                if (bucket >= 0 && bucket < buckets) {
                    tokens[(int) bucket] += i < counts.length ? counts[i] : 1;
                }
            }
        }
        long peak = 0;
        for (long count : tokens) {
            peak = Math.max(peak, count);
        }
        return peak;
    }

    /**
     * vLLM's peak concurrency: successful requests as half-open intervals [send, end), swept in
     * time order with an end before a send at the same instant.
     */
    static int peakConcurrency(List<RequestRecord> succeeded) {
        List<long[]> events = new ArrayList<>(2 * succeeded.size());
        for (RequestRecord record : succeeded) {
            events.add(new long[] {record.timings().sentNanos(), 1});
            events.add(new long[] {record.timings().endNanos(), -1});
        }
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        int current = 0;
        int peak = 0;
        for (long[] event : events) {
            current += (int) event[1];
            peak = Math.max(peak, current);
        }
        return peak;
    }

    /** vLLM's {@code mean_/median_/std_/pNN_<metric>_ms}; the median is the p50. */
    private static void putSummary(ObjectNode json, String metric, Summary summary) {
        json.put("mean_" + metric + "_ms", summary.mean());
        json.put("median_" + metric + "_ms", summary.p50());
        json.put("std_" + metric + "_ms", summary.std());
        for (Percentile p : PERCENTILES) {
            json.put(p.key() + "_" + metric + "_ms", summary.percentile(p));
        }
    }

    /**
     * vLLM's {@code --max-concurrency}: the gate of an open loop, or the concurrency of a closed
     * loop (which vLLM runs as an unlimited rate behind that gate); null for no gate.
     */
    private static Integer maxConcurrency(RunReport.Load load) {
        return load.maxConcurrency() != null ? load.maxConcurrency() : load.concurrency();
    }

    /**
     * vLLM's burstiness: 1.0 for Poisson arrivals (its default, also written for an unlimited
     * rate), the gamma shape for gamma arrivals; null for arrivals vLLM cannot make (constant,
     * ramps, traces).
     */
    private static Double burstiness(RunReport.Load load) {
        if (load.mode() == Load.Mode.CLOSED) {
            return 1.0;
        }
        return switch (load.arrival()) {
            case POISSON -> 1.0;
            case GAMMA -> load.burstiness();
            case CONSTANT, RAMP, STAGES, BURSTS, TRACE -> null;
        };
    }

    /** vLLM's backend names for the OpenAI APIs; other dialects keep llmload's name. */
    static String backend(String api) {
        if (api == null) {
            return null;
        }
        return switch (api) {
            case "chat" -> "openai-chat";
            case "completions" -> "openai";
            case "embeddings" -> "openai-embeddings";
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
