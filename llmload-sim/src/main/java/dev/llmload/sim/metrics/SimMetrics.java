package dev.llmload.sim.metrics;

import dev.llmload.sim.engine.EngineSnapshot;
import dev.llmload.sim.engine.FinishReason;
import java.util.EnumMap;
import java.util.Map;

/**
 * The server-side request metrics behind {@code /metrics}, under vLLM's names, and their
 * rendering in the Prometheus text format 0.0.4 as Python's prometheus_client writes it (counter
 * families named with {@code _total}, a {@code _created} gauge after each counter and histogram).
 *
 * <p>Threading: request observations come from the engine thread (through each request's sink),
 * write delays and {@link #render} from the event loops. The request histograms are guarded by
 * this object's monitor, the write-delay histogram by its own, so that the engine thread and an
 * event loop never wait for each other on a per-token path.
 */
public final class SimMetrics {

    private static final double NANOS_PER_SECOND = 1e9;

    private final String modelName;
    private final boolean enablePrefixCaching;
    private final double createdSeconds = System.currentTimeMillis() / 1000.0;

    private final Histogram ttft = new Histogram(Histogram.TTFT_BUCKETS);
    private final Histogram itl = new Histogram(Histogram.ITL_BUCKETS);
    private final Histogram tpot = new Histogram(Histogram.ITL_BUCKETS);
    private final Histogram e2e = new Histogram(Histogram.REQUEST_LATENCY_BUCKETS);
    private final Histogram queue = new Histogram(Histogram.REQUEST_LATENCY_BUCKETS);
    private final Histogram prefill = new Histogram(Histogram.REQUEST_LATENCY_BUCKETS);
    private final Histogram decode = new Histogram(Histogram.REQUEST_LATENCY_BUCKETS);
    /** Guarded by itself. */
    private final Histogram writeDelay = new Histogram(Histogram.WRITE_DELAY_BUCKETS);

    private final Map<FinishReason, Long> finished = new EnumMap<>(FinishReason.class);

    public SimMetrics(String modelName, boolean enablePrefixCaching) {
        this.modelName = modelName;
        this.enablePrefixCaching = enablePrefixCaching;
        for (FinishReason reason : FinishReason.values()) {
            finished.put(reason, 0L);
        }
    }

    /** One request's timeline in {@link System#nanoTime()} values, as its sink saw it. */
    public record Timeline(
            long arrival, long scheduled, long firstToken, long lastToken, int outputTokens, FinishReason reason) {}

    public synchronized void observeQueued(long arrivalNanos, long scheduledNanos) {
        queue.observe(Math.max(0, scheduledNanos - arrivalNanos) / NANOS_PER_SECOND);
    }

    public synchronized void observeFirstToken(long arrivalNanos, long firstTokenNanos) {
        ttft.observe((firstTokenNanos - arrivalNanos) / NANOS_PER_SECOND);
    }

    /** The gap between two consecutive token emissions of one request. */
    public synchronized void observeTokenGap(long gapNanos) {
        itl.observe(gapNanos / NANOS_PER_SECOND);
    }

    /**
     * How long after the engine emitted a token its event was written to the socket: the simulator's own
     * HTTP delay, which a client measures as part of its latencies. Observed once per token event.
     */
    public void observeWriteDelay(long delayNanos) {
        synchronized (writeDelay) {
            writeDelay.observe(Math.max(0, delayNanos) / NANOS_PER_SECOND);
        }
    }

    /** A finished request; aborted ones are counted but, as in vLLM, add no latency samples. */
    public synchronized void observeFinished(Timeline t) {
        finished.merge(t.reason(), 1L, Long::sum);
        if (t.reason() == FinishReason.ABORT || t.outputTokens() == 0) {
            return;
        }
        e2e.observe((t.lastToken() - t.arrival()) / NANOS_PER_SECOND);
        prefill.observe((t.firstToken() - t.scheduled()) / NANOS_PER_SECOND);
        decode.observe((t.lastToken() - t.firstToken()) / NANOS_PER_SECOND);
        if (t.outputTokens() > 1) {
            tpot.observe((t.lastToken() - t.firstToken()) / NANOS_PER_SECOND / (t.outputTokens() - 1));
        }
    }

    /** The whole exposition, engine gauges and counters taken from {@code engine}. */
    public synchronized String render(EngineSnapshot engine) {
        StringBuilder out = new StringBuilder(16 * 1024);
        String labels = "model_name=\"" + escape(modelName) + "\",engine=\"0\"";

        gauge(
                out,
                "vllm:num_requests_running",
                "Number of requests in model execution batches.",
                labels,
                engine.running());
        gauge(
                out,
                "vllm:num_requests_waiting",
                "Number of requests waiting to be processed.",
                labels,
                engine.waiting());
        gauge(
                out,
                "vllm:kv_cache_usage_perc",
                "KV-cache usage. 1 means 100 percent usage.",
                labels,
                engine.kvCacheUsage());
        gauge(
                out,
                "vllm:cache_config_info",
                "Information of the LLMEngine CacheConfig",
                labels
                        + ",block_size=\"" + engine.blockSize() + "\",cache_dtype=\"auto\",enable_prefix_caching=\""
                        + (enablePrefixCaching ? "True" : "False") + "\",num_gpu_blocks=\"" + engine.numBlocks() + "\"",
                1);

        counter(
                out,
                "vllm:num_preemptions",
                "Cumulative number of preemption from the engine.",
                labels,
                engine.preemptions());
        counter(out, "vllm:prompt_tokens", "Number of prefill tokens processed.", labels, engine.promptTokens());
        counter(
                out,
                "vllm:generation_tokens",
                "Number of generation tokens processed.",
                labels,
                engine.generationTokens());
        out.append("# HELP vllm:request_success_total Count of successfully processed requests.\n")
                .append("# TYPE vllm:request_success_total counter\n");
        for (Map.Entry<FinishReason, Long> e : finished.entrySet()) {
            sample(out, "vllm:request_success_total", reasonLabels(labels, e.getKey()), e.getValue());
        }
        out.append("# HELP vllm:request_success_created Count of successfully processed requests.\n")
                .append("# TYPE vllm:request_success_created gauge\n");
        for (FinishReason reason : finished.keySet()) {
            sample(out, "vllm:request_success_created", reasonLabels(labels, reason), createdSeconds);
        }
        counter(
                out,
                "vllm:prefix_cache_queries",
                "Prefix cache queries, in terms of number of queried tokens.",
                labels,
                engine.prefixCacheQueries());
        counter(
                out,
                "vllm:prefix_cache_hits",
                "Prefix cache hits, in terms of number of cached tokens.",
                labels,
                engine.prefixCacheHits());

        histogram(
                out, "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", labels, ttft);
        histogram(out, "vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", labels, itl);
        histogram(out, "vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", labels, e2e);
        histogram(
                out,
                "vllm:request_queue_time_seconds",
                "Histogram of time spent in WAITING phase for request.",
                labels,
                queue);
        histogram(
                out,
                "vllm:request_prefill_time_seconds",
                "Histogram of time spent in PREFILL phase for request.",
                labels,
                prefill);
        histogram(
                out,
                "vllm:request_decode_time_seconds",
                "Histogram of time spent in DECODE phase for request.",
                labels,
                decode);
        histogram(
                out,
                "vllm:request_time_per_output_token_seconds",
                "Histogram of time_per_output_token_seconds per request.",
                labels,
                tpot);

        gauge(
                out,
                "llmload_sim_step_lag_seconds",
                "How far the simulated engine's real-time loop ran behind its own schedule at its last step.",
                labels,
                engine.stepLagSeconds());
        synchronized (writeDelay) {
            histogram(
                    out,
                    "llmload_sim_token_write_delay_seconds",
                    "Time from the simulated engine emitting a token to its event being written to the socket.",
                    labels,
                    writeDelay);
        }
        return out.toString();
    }

    private static String reasonLabels(String labels, FinishReason reason) {
        return labels + ",finished_reason=\"" + reason.wireName() + "\"";
    }

    private static void gauge(StringBuilder out, String name, String help, String labels, double value) {
        header(out, name, help, "gauge");
        sample(out, name, labels, value);
    }

    private void counter(StringBuilder out, String family, String help, String labels, double value) {
        header(out, family + "_total", help, "counter");
        sample(out, family + "_total", labels, value);
        created(out, family, help, labels);
    }

    private void histogram(StringBuilder out, String name, String help, String labels, Histogram h) {
        header(out, name, help, "histogram");
        double[] bounds = h.bounds();
        long[] cumulative = h.cumulativeCounts();
        for (int i = 0; i < bounds.length; i++) {
            sample(out, name + "_bucket", labels + ",le=\"" + bounds[i] + "\"", cumulative[i]);
        }
        long count = cumulative[bounds.length];
        sample(out, name + "_bucket", labels + ",le=\"+Inf\"", count);
        sample(out, name + "_count", labels, count);
        sample(out, name + "_sum", labels, h.sum());
        created(out, name, help, labels);
    }

    private void created(StringBuilder out, String family, String help, String labels) {
        header(out, family + "_created", help, "gauge");
        sample(out, family + "_created", labels, createdSeconds);
    }

    private static void header(StringBuilder out, String name, String help, String type) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, double value) {
        out.append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }

    private static String escape(String labelValue) {
        return labelValue.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
