package dev.llmload.metrics;

import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Service-level objectives on a whole run, as a capacity search judges a load point: limits on
 * latency percentiles ({@code p99_ttft:1000}) and on the error rate ({@code error_rate:0.01}).
 * Unlike {@link dev.llmload.metrics.Slo}, which judges each request for goodput, these judge the
 * run's distributions. A limit on a statistic the run does not have (no successful request, no
 * streaming) fails: what was not measured is not passed. Pure.
 */
public record PercentileSlo(List<Limit> limits) {

    /** Latency metrics a limit may name, with the run's summary of each. */
    private static final Map<String, Function<RunResults, Summary>> METRICS = Map.of(
            "ttft", RunResults::ttftMs,
            "tpot", RunResults::tpotMs,
            "itl", RunResults::itlMs,
            "e2e", RunResults::e2eLatencyMs);

    private static final List<String> STATISTICS = List.of("mean", "p50", "p90", "p95", "p99");

    public PercentileSlo {
        if (limits.isEmpty()) {
            throw new IllegalArgumentException("an SLO needs at least one limit");
        }
        limits = List.copyOf(limits);
    }

    /**
     * One limit. {@code statistic} is {@code mean}, {@code p50}, {@code p90}, {@code p95} or
     * {@code p99} of the latency {@code metric} in ms, or null for {@code error_rate} (a share, 0 to 1).
     */
    public record Limit(String statistic, String metric, double max) {

        /** The name as written in {@code --slo}, e.g. {@code p99_ttft} or {@code error_rate}. */
        public String key() {
            return statistic == null ? metric : statistic + "_" + metric;
        }

        /** The run's value of this statistic; null when the run has none. */
        public Double valueIn(RunResults results) {
            if (statistic == null) {
                return results.errorRate();
            }
            Summary summary = METRICS.get(metric).apply(results);
            return switch (statistic) {
                case "mean" -> summary.mean();
                case "p50" -> summary.p50();
                case "p90" -> summary.p90();
                case "p95" -> summary.p95();
                default -> summary.p99();
            };
        }

        /**
         * True when the run's value of this percentile rests on too few samples to be trusted
         * ({@link dev.llmload.stats.Percentile#minimumConfidentCount}); never for a mean or the error rate.
         */
        public boolean isLowConfidenceIn(RunResults results) {
            if (statistic == null || statistic.equals("mean")) {
                return false;
            }
            Summary summary = METRICS.get(metric).apply(results);
            return java.util.Arrays.stream(dev.llmload.stats.Percentile.values())
                    .anyMatch(p -> p.key().equals(statistic) && summary.isLowConfidence(p));
        }
    }

    /** A limit a run did not meet; {@code actual} is null when the run had no value for it. */
    public record Violation(String key, double limit, Double actual) {
        @Override
        public String toString() {
            return key + " " + (actual == null ? "not measured" : format(actual)) + " > " + format(limit);
        }
    }

    /**
     * Parses {@code STAT_METRIC:LIMIT,...}: STAT one of mean, p50, p90, p95, p99; METRIC one of
     * ttft, tpot, itl, e2e (limits in ms); or {@code error_rate:SHARE}.
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static PercentileSlo parse(String text) {
        List<Limit> limits = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String[] pair = part.trim().split(":", -1);
            if (pair.length != 2) {
                throw new IllegalArgumentException(
                        "'" + part.trim() + "' is not NAME:LIMIT (e.g. p99_ttft:1000,error_rate:0.01)");
            }
            String name = pair[0].trim().toLowerCase(Locale.ROOT);
            double max;
            try {
                max = Double.parseDouble(pair[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part.trim() + "': the limit is not a number");
            }
            if (!(max >= 0) || Double.isInfinite(max)) {
                throw new IllegalArgumentException("'" + part.trim() + "': the limit must be a non-negative number");
            }
            Limit limit;
            if (name.equals("error_rate")) {
                if (max > 1) {
                    throw new IllegalArgumentException("'" + part.trim() + "': error_rate is a share from 0 to 1");
                }
                limit = new Limit(null, "error_rate", max);
            } else {
                int underscore = name.indexOf('_');
                String statistic = underscore < 0 ? "" : name.substring(0, underscore);
                String metric = underscore < 0 ? name : name.substring(underscore + 1);
                if (!STATISTICS.contains(statistic) || !METRICS.containsKey(metric)) {
                    throw new IllegalArgumentException("unknown limit '" + name + "' (use p50|p90|p95|p99|mean "
                            + "with ttft|tpot|itl|e2e, e.g. p99_ttft, or error_rate)");
                }
                limit = new Limit(statistic, metric, max);
            }
            if (limits.stream().anyMatch(l -> l.key().equals(name))) {
                throw new IllegalArgumentException("'" + name + "' given twice");
            }
            limits.add(limit);
        }
        return new PercentileSlo(limits);
    }

    /** The limits {@code results} does not meet, in the order given; empty when it meets them all. */
    public List<Violation> violations(RunResults results) {
        List<Violation> violations = new ArrayList<>();
        for (Limit limit : limits) {
            Double actual = limit.valueIn(results);
            if (actual == null || actual > limit.max()) {
                violations.add(new Violation(limit.key(), limit.max(), actual));
            }
        }
        return violations;
    }

    /**
     * The latency limits by metric ({@code ttft}, {@code tpot}, {@code e2e}), for the lines a
     * sweep page draws; the tightest when a metric has several.
     */
    public Map<String, Double> latencyLinesMs() {
        Map<String, Double> lines = new LinkedHashMap<>();
        for (Limit limit : limits) {
            if (limit.statistic() != null && !limit.metric().equals("itl")) {
                lines.merge(limit.metric(), limit.max(), Math::min);
            }
        }
        return lines;
    }

    @Override
    public String toString() {
        return String.join(
                ",", limits.stream().map(l -> l.key() + ":" + format(l.max())).toList());
    }

    /** A number as options write it: {@code 5}, not {@code 5.0}; six significant digits at most. */
    public static String format(double value) {
        return new java.math.BigDecimal(value)
                .round(new java.math.MathContext(6))
                .stripTrailingZeros()
                .toPlainString();
    }
}
