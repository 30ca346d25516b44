package dev.llmload.compare;

import dev.llmload.metrics.DoubleList;
import dev.llmload.metrics.RequestMetrics;
import dev.llmload.metrics.RunResults;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TokenEventsView;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A key metric of the comparison table. Its value comes from the report; when it is a mean,
 * percentile or rate of per-request values, {@link #units} recomputes those values from the
 * journal so {@link Bootstrap} can put an interval on the difference. Throughputs are one number
 * per run and get none.
 *
 * @param key       the name used in {@code --fail-if}, the JSON and the CSV, e.g. {@code p99_ttft}
 * @param title     the row's name in the console table
 * @param family    the per-request values behind it ({@code ttft}, {@code itl}, {@code tpot},
 *                  {@code ttst}, {@code output_token_throughput_per_user}, {@code e2e},
 *                  {@code error}), or null for a throughput of the run
 * @param statistic how the family's pooled values give the metric; null for a throughput
 * @param percentile the percentile it is, whose minimum sample count a significant difference
 *                   needs (p99: 100); null for a mean, rate or throughput
 */
public record ComparedMetric(
        String key,
        String title,
        Function<RunResults, Double> value,
        String family,
        Bootstrap.Statistic statistic,
        Percentile percentile) {

    public static final List<ComparedMetric> ALL = all();

    private static List<ComparedMetric> all() {
        List<ComparedMetric> metrics = new ArrayList<>();
        metrics.add(new ComparedMetric(
                "request_throughput", "Request throughput (req/s)", RunResults::requestThroughput, null, null, null));
        metrics.add(new ComparedMetric(
                "output_token_throughput",
                "Output token throughput (tok/s)",
                RunResults::outputTokenThroughput,
                null,
                null,
                null));
        metrics.add(new ComparedMetric(
                "total_token_throughput",
                "Total token throughput (tok/s)",
                RunResults::totalTokenThroughput,
                null,
                null,
                null));
        latency(metrics, "ttft", "TTFT", RunResults::ttftMs);
        latency(metrics, "itl", "ITL", RunResults::itlMs);
        latency(metrics, "tpot", "TPOT", RunResults::tpotMs);
        latency(metrics, "ttst", "TTST", RunResults::ttstMs);
        perRequest(
                metrics,
                "output_token_throughput_per_user",
                "output per user",
                "tok/s",
                RunResults::outputTokenThroughputPerUser);
        latency(metrics, "e2e", "E2E", RunResults::e2eLatencyMs);
        metrics.add(new ComparedMetric(
                "error_rate", "Error rate", RunResults::errorRate, "error", Bootstrap.Statistic.mean(), null));
        return List.copyOf(metrics);
    }

    private static void latency(
            List<ComparedMetric> metrics, String family, String name, Function<RunResults, Summary> summary) {
        perRequest(metrics, family, name, "ms", summary);
    }

    /** The mean, p50, p90 and p99 of a per-request value in {@code unit}. */
    private static void perRequest(
            List<ComparedMetric> metrics,
            String family,
            String name,
            String unit,
            Function<RunResults, Summary> summary) {
        metrics.add(new ComparedMetric(
                "mean_" + family,
                "Mean " + name + " (" + unit + ")",
                r -> summary.apply(r).mean(),
                family,
                Bootstrap.Statistic.mean(),
                null));
        for (Percentile p : new Percentile[] {Percentile.P50, Percentile.P90, Percentile.P99}) {
            metrics.add(new ComparedMetric(
                    p.key() + "_" + family,
                    "P" + p.key().substring(1) + " " + name + " (" + unit + ")",
                    r -> summary.apply(r).percentile(p),
                    family,
                    Bootstrap.Statistic.percentile(p.value()),
                    p));
        }
    }

    public static ComparedMetric byKey(String key) {
        return ALL.stream()
                .filter(m -> m.key().equals(key))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown metric '" + key + "' (use "
                        + String.join(
                                ", ", ALL.stream().map(ComparedMetric::key).toList()) + ")"));
    }

    /**
     * The per-request values of a family over the measured requests, one array per request, as the
     * report's statistics pool them: latencies of successful requests only; for {@code error}, 1
     * for each failed request and 0 for each other.
     */
    public static double[][] units(String family, List<RequestRecord> records) {
        List<double[]> units = new ArrayList<>();
        for (RequestRecord record : records) {
            if (record.warmup()) {
                continue;
            }
            if (family.equals("error")) {
                units.add(new double[] {record.succeeded() ? 0 : 1});
                continue;
            }
            if (!record.succeeded()) {
                continue;
            }
            RequestMetrics metrics = RequestMetrics.of(record);
            Double single = switch (family) {
                case "ttft" -> metrics.ttftMs();
                case "tpot" -> metrics.tpotMs();
                case "e2e" -> metrics.e2eMs();
                case "output_token_throughput_per_user" -> metrics.outputTokensPerSecondPerUser();
                case "ttst" -> {
                    long ttstNanos = RequestMetrics.timeToSecondTokenNanos(TokenEventsView.of(record));
                    yield ttstNanos == RequestTimings.NEVER ? null : ttstNanos / 1e6;
                }
                default -> null;
            };
            if (family.equals("itl")) {
                DoubleList gaps = new DoubleList();
                RequestMetrics.collectInterTokenLatencies(record, (gapNanos, tokens) -> gaps.add(gapNanos / 1e6));
                units.add(gaps.toArray());
            } else if (single != null) {
                units.add(new double[] {single});
            }
        }
        return units.toArray(double[][]::new);
    }
}
