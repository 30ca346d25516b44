package dev.llmload.report.format;

import dev.llmload.metrics.Goodput;
import dev.llmload.metrics.RunResults;
import dev.llmload.report.Efficiency;
import dev.llmload.report.RunReport;
import dev.llmload.stats.Summary;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code summary.csv}: one flat row per run with a fixed header, so rows of many runs can be
 * appended into one sheet. Absent values are empty cells.
 */
public final class SummaryCsv {

    private record Column(String name, Function<RunReport, Object> value) {}

    private static final List<Column> COLUMNS = columns();

    private SummaryCsv() {}

    private static List<Column> columns() {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("run_id", r -> r.run().id()));
        columns.add(new Column("started_at", r -> r.run().startedAt()));
        columns.add(new Column("tool_version", r -> r.tool().version()));
        columns.add(new Column("seed", r -> r.run().seed()));
        columns.add(new Column("model", r -> r.model().name()));
        columns.add(new Column("url", r -> r.service().url()));
        columns.add(new Column("api", r -> r.service().api()));
        columns.add(new Column("framework", r -> r.service().framework()));
        columns.add(new Column("load_mode", r -> r.load().mode()));
        columns.add(new Column("concurrency", r -> r.load().concurrency()));
        columns.add(new Column("request_rate", r -> r.load().requestRate()));
        columns.add(new Column("arrival", r -> r.load().arrival()));
        columns.add(new Column("max_concurrency", r -> r.load().maxConcurrency()));
        columns.add(
                new Column("input_tokens_requested", r -> r.data().inputTokens().requested()));
        columns.add(new Column(
                "output_tokens_requested", r -> r.data().outputTokens().requested()));
        columns.add(new Column("attempted", r -> r.results().requests().attempted()));
        columns.add(new Column("succeeded", r -> r.results().requests().succeeded()));
        columns.add(new Column("failed", r -> r.results().requests().failed()));
        columns.add(new Column("timed_out", r -> r.results().requests().timedOut()));
        columns.add(new Column("success_rate", r -> r.results().successRate()));
        columns.add(new Column("error_rate", r -> r.results().errorRate()));
        columns.add(new Column("timeout_rate", r -> r.results().timeoutRate()));
        columns.add(new Column("duration_s", r -> r.results().durationS()));
        columns.add(new Column("request_throughput", r -> r.results().requestThroughput()));
        columns.add(new Column("output_token_throughput", r -> r.results().outputTokenThroughput()));
        columns.add(new Column("total_token_throughput", r -> r.results().totalTokenThroughput()));
        columns.add(new Column("goodput_met_share", r -> goodput(r, Goodput::metShare)));
        columns.add(new Column("request_goodput", r -> goodput(r, Goodput::requestGoodput)));
        columns.add(new Column("output_token_goodput", r -> goodput(r, Goodput::outputTokenGoodput)));
        addSummary(columns, "input_tokens", RunResults::inputTokens);
        addSummary(columns, "output_tokens", RunResults::outputTokens);
        addSummary(columns, "ttft_ms", RunResults::ttftMs);
        addSummary(columns, "itl_ms", RunResults::itlMs);
        addSummary(columns, "tpot_ms", RunResults::tpotMs);
        addSummary(columns, "ttst_ms", RunResults::ttstMs);
        addSummary(columns, "output_token_throughput_per_user", RunResults::outputTokenThroughputPerUser);
        addSummary(columns, "e2e_latency_ms", RunResults::e2eLatencyMs);
        addSummary(columns, "client_queue_time_ms", RunResults::clientQueueTimeMs);
        addSummary(columns, "ttft_from_intended_ms", RunResults::ttftFromIntendedMs);
        addSummary(columns, "e2e_from_intended_ms", RunResults::e2eFromIntendedMs);
        columns.add(new Column(
                "kv_cache_usage_mean",
                r -> telemetry(
                        r,
                        t -> t.kvCacheUsage() == null ? null : t.kvCacheUsage().mean())));
        columns.add(new Column(
                "kv_cache_usage_max",
                r -> telemetry(
                        r,
                        t -> t.kvCacheUsage() == null ? null : t.kvCacheUsage().max())));
        columns.add(new Column(
                "gpu_utilization_mean",
                r -> telemetry(r, t -> t.gpu() == null ? null : t.gpu().utilizationMean())));
        columns.add(new Column(
                "gpu_memory_used_gib_max",
                r -> telemetry(r, t -> t.gpu() == null ? null : t.gpu().memoryUsedGibMax())));
        columns.add(new Column(
                "cost_per_million_output_tokens", r -> efficiency(r, Efficiency::costPerMillionOutputTokens)));
        columns.add(
                new Column("cost_per_million_total_tokens", r -> efficiency(r, Efficiency::costPerMillionTotalTokens)));
        columns.add(new Column("cost_currency", r -> efficiency(r, Efficiency::currency)));
        columns.add(new Column("gpu_power_watts", r -> efficiency(r, Efficiency::gpuPowerWatts)));
        columns.add(new Column(
                "energy_per_output_token_joules", r -> efficiency(r, Efficiency::energyPerOutputTokenJoules)));
        columns.add(new Column("interrupted", r -> r.run().interrupted()));
        return List.copyOf(columns);
    }

    private static Object goodput(RunReport report, Function<Goodput, Object> value) {
        return report.results().goodput() == null
                ? null
                : value.apply(report.results().goodput());
    }

    private static Object telemetry(RunReport report, Function<TelemetrySummary, Object> value) {
        return report.telemetry() == null ? null : value.apply(report.telemetry());
    }

    private static Object efficiency(RunReport report, Function<Efficiency, Object> value) {
        return report.efficiency() == null ? null : value.apply(report.efficiency());
    }

    private static void addSummary(List<Column> columns, String name, Function<RunResults, Summary> summary) {
        columns.add(new Column(name + "_mean", r -> summary.apply(r.results()).mean()));
        columns.add(new Column(name + "_p50", r -> summary.apply(r.results()).p50()));
        columns.add(new Column(name + "_p90", r -> summary.apply(r.results()).p90()));
        columns.add(new Column(name + "_p95", r -> summary.apply(r.results()).p95()));
        columns.add(new Column(name + "_p99", r -> summary.apply(r.results()).p99()));
        columns.add(new Column(name + "_p99_9", r -> summary.apply(r.results()).p99_9()));
    }

    public static String header() {
        return String.join(",", COLUMNS.stream().map(Column::name).toList());
    }

    public static String row(RunReport report) {
        return String.join(
                ",", COLUMNS.stream().map(c -> cell(c.value().apply(report))).toList());
    }

    static String cell(Object value) {
        if (value == null) {
            return "";
        }
        String text = value.toString();
        if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
            return "\"" + text.replace("\"", "\"\"") + "\"";
        }
        return text;
    }
}
