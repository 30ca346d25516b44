package dev.llmload.telemetry.engine;

import dev.llmload.telemetry.prometheus.Histogram;
import dev.llmload.telemetry.prometheus.MetricFamily;
import dev.llmload.telemetry.prometheus.Sample;
import dev.llmload.telemetry.prometheus.Scrape;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * How one engine's metric names map to {@link ServerSignals}. Names are matched exactly (vLLM's
 * {@code vllm:num_requests_waiting_by_reason} is not {@code vllm:num_requests_waiting}); where an
 * engine renamed a metric, the current name is tried first, then the old one. Counts and
 * counters are summed over all label sets, which adds up data-parallel engines; KV-cache use, a
 * fraction, is averaged over them instead.
 */
public sealed interface EngineProfile {

    EngineKind kind();

    /** Families whose presence identifies this engine; see {@link #detect(Scrape)}. */
    List<String> markers();

    ServerSignals read(Scrape scrape);

    /**
     * Every family {@link #read} takes a value from, each fallback name included: the scrapes
     * during a run keep only these ({@link dev.llmload.telemetry.prometheus.PrometheusTextParser#parse(String, Set)}).
     * A name missing here reads as absent; {@code EngineProfileTest} reads every engine's fixture
     * both ways.
     */
    Set<String> families();

    static EngineProfile of(EngineKind kind) {
        return switch (kind) {
            case VLLM -> new Vllm();
            case SGLANG -> new Sglang();
            case TGI -> new Tgi();
            case TRTLLM -> new TrtllmServe();
            case TRITON -> new Triton();
            case LLAMACPP -> new LlamaCpp();
        };
    }

    /** The engine whose marker families the scrape exposes most of; empty when none matches. */
    static Optional<EngineProfile> detect(Scrape scrape) {
        EngineProfile best = null;
        long bestHits = 0;
        for (EngineKind kind : EngineKind.values()) {
            EngineProfile profile = of(kind);
            long hits = profile.markers().stream().filter(scrape::has).count();
            if (hits > bestHits) {
                best = profile;
                bestHits = hits;
            }
        }
        return Optional.ofNullable(best);
    }

    /** vLLM V1, with the names it used before 0.9.2 / 0.11 as fallbacks. */
    record Vllm() implements EngineProfile {
        public EngineKind kind() {
            return EngineKind.VLLM;
        }

        public List<String> markers() {
            return List.of(
                    "vllm:num_requests_running",
                    "vllm:num_requests_waiting",
                    "vllm:kv_cache_usage_perc",
                    "vllm:gpu_cache_usage_perc");
        }

        public Set<String> families() {
            return Set.of(
                    "vllm:kv_cache_usage_perc",
                    "vllm:gpu_cache_usage_perc",
                    "vllm:num_requests_running",
                    "vllm:num_requests_waiting",
                    "vllm:num_preemptions",
                    "vllm:prefix_cache_hits",
                    "vllm:gpu_prefix_cache_hits",
                    "vllm:prefix_cache_queries",
                    "vllm:gpu_prefix_cache_queries",
                    "vllm:prompt_tokens",
                    "vllm:generation_tokens",
                    "vllm:request_success",
                    "vllm:request_queue_time_seconds",
                    "vllm:time_to_first_token_seconds",
                    "vllm:inter_token_latency_seconds",
                    "vllm:time_per_output_token_seconds");
        }

        public ServerSignals read(Scrape s) {
            return new ServerSignals(
                    mean(s, "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"),
                    sum(s, "vllm:num_requests_running"),
                    sum(s, "vllm:num_requests_waiting"),
                    sum(s, "vllm:num_preemptions"),
                    sum(s, "vllm:prefix_cache_hits", "vllm:gpu_prefix_cache_hits"),
                    sum(s, "vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries"),
                    sum(s, "vllm:prompt_tokens"),
                    sum(s, "vllm:generation_tokens"),
                    notAborted(s, "vllm:request_success"),
                    histogram(s, "vllm:request_queue_time_seconds"),
                    histogram(s, "vllm:time_to_first_token_seconds"),
                    histogram(s, "vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds"));
        }
    }

    /** SGLang (with {@code --enable-metrics}); retractions stand for preemptions. */
    record Sglang() implements EngineProfile {
        public EngineKind kind() {
            return EngineKind.SGLANG;
        }

        public List<String> markers() {
            return List.of("sglang:num_running_reqs", "sglang:num_queue_reqs", "sglang:token_usage");
        }

        public Set<String> families() {
            return Set.of(
                    "sglang:num_requests",
                    "sglang:num_aborted_requests",
                    "sglang:token_usage",
                    "sglang:num_running_reqs",
                    "sglang:num_queue_reqs",
                    "sglang:num_retracted_requests",
                    "sglang:cached_tokens",
                    "sglang:prompt_tokens",
                    "sglang:generation_tokens",
                    "sglang:queue_time_seconds",
                    "sglang:time_to_first_token_seconds",
                    "sglang:inter_token_latency_seconds");
        }

        public ServerSignals read(Scrape s) {
            Double finished = sum(s, "sglang:num_requests");
            Double aborted = sum(s, "sglang:num_aborted_requests");
            return new ServerSignals(
                    mean(s, "sglang:token_usage"),
                    sum(s, "sglang:num_running_reqs"),
                    sum(s, "sglang:num_queue_reqs"),
                    sum(s, "sglang:num_retracted_requests"),
                    // cached prompt tokens out of all prompt tokens: the radix-cache hit rate
                    sum(s, "sglang:cached_tokens"),
                    sum(s, "sglang:prompt_tokens"),
                    sum(s, "sglang:prompt_tokens"),
                    sum(s, "sglang:generation_tokens"),
                    finished == null ? null : finished - (aborted == null ? 0 : aborted),
                    histogram(s, "sglang:queue_time_seconds"),
                    histogram(s, "sglang:time_to_first_token_seconds"),
                    histogram(s, "sglang:inter_token_latency_seconds"));
        }
    }

    /**
     * HuggingFace TGI. It has no KV-cache gauge: tokens reserved by the running batch over the
     * batch token budget stands in for it. Token counts come from the sums of the per-request
     * length histograms; there is no TTFT histogram.
     */
    record Tgi() implements EngineProfile {
        public EngineKind kind() {
            return EngineKind.TGI;
        }

        public List<String> markers() {
            return List.of("tgi_queue_size", "tgi_batch_current_size", "tgi_batch_current_max_tokens");
        }

        public Set<String> families() {
            return Set.of(
                    "tgi_batch_current_max_tokens",
                    "tgi_batch_max_total_tokens",
                    "tgi_batch_current_size",
                    "tgi_queue_size",
                    "tgi_request_input_length",
                    "tgi_request_generated_tokens",
                    "tgi_request_success",
                    "tgi_request_queue_duration",
                    "tgi_request_mean_time_per_token_duration");
        }

        public ServerSignals read(Scrape s) {
            Double reserved = sum(s, "tgi_batch_current_max_tokens");
            Double budget = sum(s, "tgi_batch_max_total_tokens");
            return new ServerSignals(
                    reserved != null && budget != null && budget > 0 ? reserved / budget : null,
                    sum(s, "tgi_batch_current_size"),
                    sum(s, "tgi_queue_size"),
                    null,
                    null,
                    null,
                    s.histogram("tgi_request_input_length").map(Histogram::sum).orElse(null),
                    s.histogram("tgi_request_generated_tokens")
                            .map(Histogram::sum)
                            .orElse(null),
                    sum(s, "tgi_request_success"),
                    histogram(s, "tgi_request_queue_duration"),
                    null,
                    histogram(s, "tgi_request_mean_time_per_token_duration"));
        }
    }

    /** trtllm-serve's Prometheus endpoint ({@code /prometheus/metrics}; its {@code /metrics} is JSON). */
    record TrtllmServe() implements EngineProfile {
        public EngineKind kind() {
            return EngineKind.TRTLLM;
        }

        public List<String> markers() {
            return List.of("trtllm_num_requests_running", "trtllm_num_requests_waiting", "trtllm_kv_cache_utilization");
        }

        public Set<String> families() {
            return Set.of(
                    "trtllm_kv_cache_utilization",
                    "trtllm_num_requests_running",
                    "trtllm_num_requests_waiting",
                    "trtllm_prompt_tokens",
                    "trtllm_generation_tokens",
                    "trtllm_request_success",
                    "trtllm_request_queue_time_seconds",
                    "trtllm_time_to_first_token_seconds",
                    "trtllm_time_per_output_token_seconds");
        }

        public ServerSignals read(Scrape s) {
            return new ServerSignals(
                    mean(s, "trtllm_kv_cache_utilization"),
                    sum(s, "trtllm_num_requests_running"),
                    sum(s, "trtllm_num_requests_waiting"),
                    null,
                    null,
                    null,
                    sum(s, "trtllm_prompt_tokens"),
                    sum(s, "trtllm_generation_tokens"),
                    notAborted(s, "trtllm_request_success"),
                    histogram(s, "trtllm_request_queue_time_seconds"),
                    histogram(s, "trtllm_time_to_first_token_seconds"),
                    histogram(s, "trtllm_time_per_output_token_seconds"));
        }
    }

    /**
     * Triton with the TensorRT-LLM backend. Queue time is a cumulative µs counter, read as a
     * histogram with only a {@code +Inf} bucket so the window gives its mean but no percentiles.
     * Triton counts requests per model (the ensemble and pre/post-processing too), so request
     * counters are read for the model that carries the {@code nv_trt_llm_*} metrics.
     */
    record Triton() implements EngineProfile {
        private static final String REQUESTS = "nv_trt_llm_request_metrics";
        private static final String KV = "nv_trt_llm_kv_cache_block_metrics";

        public EngineKind kind() {
            return EngineKind.TRITON;
        }

        public List<String> markers() {
            return List.of(REQUESTS, KV, "nv_inference_request_success", "nv_inference_queue_duration_us");
        }

        public Set<String> families() {
            return Set.of(
                    REQUESTS,
                    KV,
                    "nv_inference_request_success",
                    "nv_inference_queue_duration_us",
                    "nv_inference_request_failure");
        }

        public ServerSignals read(Scrape s) {
            Double kv = value(s.sumWhere(KV, "kv_cache_block_type", "fraction"));
            if (kv == null) {
                Double used = value(s.sumWhere(KV, "kv_cache_block_type", "used"));
                Double max = value(s.sumWhere(KV, "kv_cache_block_type", "max"));
                kv = used != null && max != null && max > 0 ? used / max : null;
            }
            String model = s.family(REQUESTS)
                    .flatMap(f -> f.samples().stream().findFirst())
                    .map(sample -> sample.label("model"))
                    .orElse(null);
            Double succeeded = model == null
                    ? sum(s, "nv_inference_request_success")
                    : value(s.sumWhere("nv_inference_request_success", "model", model));
            Double queuedMicros = model == null
                    ? sum(s, "nv_inference_queue_duration_us")
                    : value(s.sumWhere("nv_inference_queue_duration_us", "model", model));
            Double failed = model == null
                    ? sum(s, "nv_inference_request_failure")
                    : value(s.sumWhere("nv_inference_request_failure", "model", model));
            Histogram queue = null;
            if (queuedMicros != null && succeeded != null) {
                double requests = succeeded + (failed == null ? 0 : failed);
                queue = new Histogram(
                        List.of(new Histogram.Bucket(Double.POSITIVE_INFINITY, requests)),
                        queuedMicros / 1e6,
                        requests);
            }
            return new ServerSignals(
                    kv,
                    value(s.sumWhere(REQUESTS, "request_type", "scheduled")),
                    value(s.sumWhere(REQUESTS, "request_type", "waiting")),
                    null,
                    null,
                    null,
                    null,
                    null,
                    succeeded,
                    queue,
                    null,
                    null);
        }
    }

    /** llama.cpp's llama-server (with {@code --metrics}): no KV gauge, no latency histograms. */
    record LlamaCpp() implements EngineProfile {
        public EngineKind kind() {
            return EngineKind.LLAMACPP;
        }

        public List<String> markers() {
            return List.of("llamacpp:requests_processing", "llamacpp:requests_deferred", "llamacpp:tokens_predicted");
        }

        public Set<String> families() {
            return Set.of(
                    "llamacpp:requests_processing",
                    "llamacpp:requests_deferred",
                    "llamacpp:prompt_tokens",
                    "llamacpp:tokens_predicted");
        }

        public ServerSignals read(Scrape s) {
            return new ServerSignals(
                    null,
                    sum(s, "llamacpp:requests_processing"),
                    sum(s, "llamacpp:requests_deferred"),
                    null,
                    null,
                    null,
                    sum(s, "llamacpp:prompt_tokens"),
                    sum(s, "llamacpp:tokens_predicted"),
                    null,
                    null,
                    null,
                    null);
        }
    }

    /** The sum over label sets of the first of {@code names} the scrape has. */
    private static Double sum(Scrape scrape, String... names) {
        for (String name : names) {
            OptionalDouble total = scrape.sum(name);
            if (total.isPresent()) {
                return total.getAsDouble();
            }
        }
        return null;
    }

    /** The mean over label sets (e.g. DP engines) of the first of {@code names} the scrape has. */
    private static Double mean(Scrape scrape, String... names) {
        for (String name : names) {
            Optional<MetricFamily> family = scrape.family(name);
            if (family.isPresent()) {
                OptionalDouble mean = family.get().samples().stream()
                        .filter(sample -> sample.name().equals(name) && !Double.isNaN(sample.value()))
                        .mapToDouble(Sample::value)
                        .average();
                if (mean.isPresent()) {
                    return mean.getAsDouble();
                }
            }
        }
        return null;
    }

    private static Histogram histogram(Scrape scrape, String... names) {
        for (String name : names) {
            Optional<Histogram> histogram = scrape.histogram(name);
            if (histogram.isPresent()) {
                return histogram.get();
            }
        }
        return null;
    }

    /** Finished requests less those whose {@code finished_reason} is {@code abort}. */
    private static Double notAborted(Scrape scrape, String name) {
        Double all = sum(scrape, name);
        if (all == null) {
            return null;
        }
        return all - scrape.sumWhere(name, "finished_reason", "abort").orElse(0);
    }

    private static Double value(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }
}
