package dev.llmload.telemetry.prometheus;

/**
 * The type a {@code # TYPE} line declares. OpenMetrics' {@code info} and {@code stateset} are
 * read as {@link #GAUGE} and its {@code unknown} as {@link #UNTYPED}, as Prometheus itself does.
 */
public enum MetricType {
    COUNTER,
    GAUGE,
    HISTOGRAM,
    /** Parsed so its samples are not mistaken for other metrics, but never analysed. */
    SUMMARY,
    UNTYPED;

    /** The type named on a {@code # TYPE} line, or {@code null} if the word is not one. */
    static MetricType fromTypeLine(String word) {
        return switch (word) {
            case "counter" -> COUNTER;
            case "gauge", "info", "stateset" -> GAUGE;
            case "histogram", "gaugehistogram" -> HISTOGRAM;
            case "summary" -> SUMMARY;
            case "untyped", "unknown" -> UNTYPED;
            default -> null;
        };
    }
}
