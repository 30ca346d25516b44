package dev.llmload.telemetry.prometheus;

import java.util.List;

/**
 * The samples of one metric. A counter's family is named without its {@code _total} suffix
 * whichever way it was declared ({@code # TYPE x_total counter} in the Prometheus text format,
 * {@code # TYPE x counter} in OpenMetrics), so one lookup finds both; its samples keep the
 * exposed names.
 *
 * @param name    the family name
 * @param type    the declared type, {@link MetricType#UNTYPED} without a {@code # TYPE} line
 * @param help    the {@code # HELP} text, unescaped, or {@code ""}
 * @param samples in exposition order; {@code _created} samples are not included
 */
public record MetricFamily(String name, MetricType type, String help, List<Sample> samples) {

    public MetricFamily {
        samples = List.copyOf(samples);
    }
}
