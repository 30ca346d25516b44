package dev.llmload.compare;

import dev.llmload.metrics.PercentileSlo;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --fail-if} thresholds: {@code METRIC:+10%} fails when the metric rose by more than 10%
 * over the baseline, {@code METRIC:-5%} when it fell by more than 5%; without {@code %} the
 * amount is absolute in the metric's unit ({@code p99_ttft:+50} is 50 ms). A metric with an
 * interval crosses a threshold only when its whole interval lies beyond it (see
 * {@link Comparison.Difference#crosses}): two runs of one configuration differ by chance, and a
 * gate must not fail on that; throughputs, which have no interval, count on the measured change
 * alone. Pure.
 *
 * @param thresholds in the order given
 */
public record FailIf(List<Threshold> thresholds) {

    /**
     * @param rise   true to fail on a rise, false on a fall
     * @param amount the size of change allowed (not negative); a share when {@code relative}
     */
    public record Threshold(String metric, boolean rise, double amount, boolean relative) {

        /** Whether a change of {@code difference} (relative: {@code relativeDifference}) crosses this threshold. */
        public boolean crossedBy(Double difference, Double relativeDifference) {
            Double change = relative ? relativeDifference : difference;
            if (change == null) {
                return false;
            }
            return rise ? change > amount : change < -amount;
        }

        @Override
        public String toString() {
            return metric + ":" + (rise ? "+" : "-") + PercentileSlo.format(relative ? amount * 100 : amount)
                    + (relative ? "%" : "");
        }
    }

    public FailIf {
        thresholds = List.copyOf(thresholds);
    }

    /**
     * Parses {@code METRIC:±AMOUNT[%],...}; METRIC is a key of {@link ComparedMetric#ALL}.
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static FailIf parse(String text) {
        List<Threshold> thresholds = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String item = part.trim();
            int colon = item.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + item + "' is not METRIC:+AMOUNT[%] (e.g. p99_ttft:+10%)");
            }
            String metric = item.substring(0, colon).trim();
            ComparedMetric.byKey(metric);
            String amount = item.substring(colon + 1).trim();
            if (!amount.startsWith("+") && !amount.startsWith("-")) {
                throw new IllegalArgumentException("'" + item + "': say which way fails, + (a rise) or - (a fall)");
            }
            boolean relative = amount.endsWith("%");
            double value;
            try {
                value = Double.parseDouble(amount.substring(1, relative ? amount.length() - 1 : amount.length()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + item + "': '" + amount + "' is not a number");
            }
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("'" + item + "': '" + amount + "' is not a sign and a number");
            }
            thresholds.add(new Threshold(metric, amount.startsWith("+"), relative ? value / 100 : value, relative));
        }
        return new FailIf(thresholds);
    }
}
