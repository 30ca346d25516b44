package dev.llmload.telemetry.prometheus;

import java.util.Map;

/**
 * One exposed line: {@code name{labels} value}. The optional exposition timestamp is not kept,
 * because every scrape is timestamped on arrival with the run's own clock instead.
 *
 * @param name   the series name as exposed, with any suffix ({@code _total}, {@code _bucket}, ...)
 * @param labels label names to unescaped values
 * @param value  the value; {@code NaN} and infinities as exposed
 */
public record Sample(String name, Map<String, String> labels, double value) {

    public Sample {
        labels = Map.copyOf(labels);
    }

    /** The value of {@code label}, or {@code null} when the sample does not carry it. */
    public String label(String label) {
        return labels.get(label);
    }
}
