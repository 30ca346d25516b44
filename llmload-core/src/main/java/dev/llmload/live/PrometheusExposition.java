package dev.llmload.live;

import dev.llmload.record.FailureClass;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * A {@link LiveSnapshot} in Prometheus's text exposition format (version 0.0.4): every name starts
 * {@code llmload_} and carries its unit, counters end in {@code _total}, and every series is
 * labelled {@code segment} in a run spread over hosts. docs/live.md lists the metrics; the names
 * are also what deploy/grafana's dashboard queries, which a test holds to {@link #METRIC_NAMES}.
 * Pure: text from a snapshot.
 */
public final class PrometheusExposition {

    /** The content type of the format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** Every family this exposition writes (a closed loop leaves out {@code llmload_scheduled_requests_total}). */
    public static final List<String> METRIC_NAMES = List.of(
            "llmload_requests_total",
            "llmload_warmup_requests_total",
            "llmload_requests_in_flight",
            "llmload_scheduled_requests_total",
            "llmload_output_tokens_total",
            "llmload_time_to_first_token_seconds",
            "llmload_inter_token_latency_seconds",
            "llmload_e2e_request_latency_seconds",
            "llmload_event_loop_lag_max_seconds",
            "llmload_elapsed_seconds");

    private PrometheusExposition() {}

    /**
     * @param snapshot what to write
     * @param segment  the run's segment index, or null for a run on one host
     */
    public static String render(LiveSnapshot snapshot, Integer segment) {
        String base = segment == null ? "" : "segment=\"" + segment + "\"";
        StringBuilder out = new StringBuilder(8192);
        family(
                out,
                "llmload_requests_total",
                "counter",
                "Measured requests finished (warm-up excluded), by outcome: success or the failure class.");
        sample(out, "llmload_requests_total", labels(base, "outcome=\"success\""), snapshot.succeeded());
        for (FailureClass c : FailureClass.values()) {
            sample(
                    out,
                    "llmload_requests_total",
                    labels(base, "outcome=\"" + c.key() + "\""),
                    snapshot.failed().getOrDefault(c, 0L));
        }
        family(out, "llmload_warmup_requests_total", "counter", "Warm-up requests finished, whatever their outcome.");
        sample(out, "llmload_warmup_requests_total", labels(base, ""), snapshot.warmups());
        family(
                out,
                "llmload_requests_in_flight",
                "gauge",
                "Requests sent and not yet finished (warm-up included), at the last tick.");
        sample(out, "llmload_requests_in_flight", labels(base, ""), snapshot.inFlight());
        if (snapshot.scheduled() >= 0) {
            family(
                    out,
                    "llmload_scheduled_requests_total",
                    "counter",
                    "Sends the open loop's schedule had due by now: its rate is the offered load.");
            sample(out, "llmload_scheduled_requests_total", labels(base, ""), snapshot.scheduled());
        }
        family(out, "llmload_output_tokens_total", "counter", "Output tokens of the measured requests that succeeded.");
        sample(out, "llmload_output_tokens_total", labels(base, ""), snapshot.outputTokens());
        histogram(
                out,
                "llmload_time_to_first_token_seconds",
                "Time to first token of measured successful streamed requests, from the send, seconds.",
                base,
                snapshot.ttft());
        histogram(
                out,
                "llmload_inter_token_latency_seconds",
                "Gaps between token-bearing events of measured successful streamed requests, seconds.",
                base,
                snapshot.itl());
        histogram(
                out,
                "llmload_e2e_request_latency_seconds",
                "End-to-end latency of measured successful requests, from the send to the last token, seconds.",
                base,
                snapshot.e2e());
        family(
                out,
                "llmload_event_loop_lag_max_seconds",
                "gauge",
                "The most any of llmload's event loops ran late in the last second, seconds.");
        sample(out, "llmload_event_loop_lag_max_seconds", labels(base, ""), snapshot.loopLagMaxNanos() / 1e9);
        family(out, "llmload_elapsed_seconds", "gauge", "Time since the run's clock started, seconds.");
        sample(out, "llmload_elapsed_seconds", labels(base, ""), snapshot.elapsedNanos() / 1e9);
        return out.toString();
    }

    private static void histogram(
            StringBuilder out, String name, String help, String base, LiveSnapshot.Histogram histogram) {
        family(out, name, "histogram", help);
        double[] bounds = histogram.upperBoundsSeconds();
        long[] counts = histogram.cumulativeCounts();
        for (int i = 0; i < bounds.length; i++) {
            sample(out, name + "_bucket", labels(base, "le=\"" + plain(bounds[i]) + "\""), counts[i]);
        }
        sample(out, name + "_bucket", labels(base, "le=\"+Inf\""), histogram.count());
        sample(out, name + "_sum", labels(base, ""), histogram.sumSeconds());
        sample(out, name + "_count", labels(base, ""), histogram.count());
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ")
                .append(name)
                .append(' ')
                .append(help)
                .append('\n')
                .append("# TYPE ")
                .append(name)
                .append(' ')
                .append(type)
                .append('\n');
    }

    private static String labels(String base, String own) {
        String all = base.isEmpty() ? own : own.isEmpty() ? base : base + "," + own;
        return all.isEmpty() ? "" : "{" + all + "}";
    }

    private static void sample(StringBuilder out, String name, String labels, long value) {
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, double value) {
        out.append(name)
                .append(labels)
                .append(' ')
                .append(String.format(Locale.ROOT, "%.9g", value))
                .append('\n');
    }

    /** A bucket bound as written (0.0005, 1, 2560), not in Java's exponent form. */
    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
