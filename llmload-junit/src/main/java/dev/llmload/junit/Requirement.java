package dev.llmload.junit;

import dev.llmload.metrics.RunResults;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Summary;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/** One limit of a {@link LatencyGate}; pure arithmetic on a run's results. */
sealed interface Requirement {

    /** What was measured against the limit, when the limit is not met. */
    record Violation(String metric, String limit, String measured, Object limitValue, Object measuredValue) {

        String describe() {
            return metric + ": measured " + measured + ", limit " + limit;
        }
    }

    /** The violation, or empty when {@code results} meet the limit. */
    Optional<Violation> check(RunResults results);

    /** A percentile of a latency strictly below a limit; no samples at all is a violation, not a pass. */
    record LatencyBelow(Latency latency, Percentile percentile, Duration limit) implements Requirement {

        public LatencyBelow {
            if (limit.isNegative() || limit.isZero()) {
                throw new IllegalArgumentException("a latency limit must be positive, got " + limit);
            }
        }

        @Override
        public Optional<Violation> check(RunResults results) {
            Summary summary = latency.of(results);
            double limitMs = limit.toNanos() / 1e6;
            String metric = percentile.key().replace('_', '.') + " " + latency.label() + " (results."
                    + latency.reportKey() + "." + percentile.key() + ")";
            String limitText = "below " + number(limitMs) + " ms";
            Double value = summary.percentile(percentile);
            if (value == null) {
                return Optional.of(new Violation(
                        metric,
                        limitText,
                        "nothing (no request gave a sample; "
                                + results.requests().succeeded() + " of "
                                + results.requests().attempted() + " succeeded)",
                        limitMs,
                        null));
            }
            if (value < limitMs) {
                return Optional.empty();
            }
            String measured = number(value) + " ms";
            if (summary.isLowConfidence(percentile)) {
                measured += " (from " + summary.count() + " samples; " + percentile.key() + " rests on "
                        + percentile.minimumConfidentCount() + " or more)";
            }
            return Optional.of(new Violation(metric, limitText, measured, limitMs, value));
        }
    }

    /** The share of measured requests that failed, strictly below a limit; a run with no requests is a violation. */
    record ErrorRateBelow(double limit) implements Requirement {

        public ErrorRateBelow {
            if (!(limit > 0 && limit <= 1)) {
                throw new IllegalArgumentException(
                        "an error-rate limit is a share above 0 and at most 1, got " + limit);
            }
        }

        @Override
        public Optional<Violation> check(RunResults results) {
            String metric = "error rate (results.error_rate)";
            String limitText = "below " + percent(limit);
            Double rate = results.errorRate();
            if (rate == null) {
                return Optional.of(new Violation(metric, limitText, "nothing (no request was measured)", limit, null));
            }
            if (rate < limit) {
                return Optional.empty();
            }
            return Optional.of(new Violation(
                    metric,
                    limitText,
                    percent(rate) + " (" + results.requests().failed() + " of "
                            + results.requests().attempted() + " requests failed)",
                    limit,
                    rate));
        }
    }

    /** At most three decimals, no trailing zeros: {@code 5}, {@code 50.812}. */
    static String number(double value) {
        String text = String.format(Locale.ROOT, "%.3f", value);
        return text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
    }

    static String percent(double share) {
        return number(share * 100) + "%";
    }
}
