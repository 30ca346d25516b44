package dev.llmload.telemetry;

import dev.llmload.telemetry.prometheus.PrometheusTextParser;
import dev.llmload.telemetry.prometheus.Scrape;
import java.util.Locale;

/**
 * Whether a first answer from a metrics URL is Prometheus text worth scraping during the run.
 * Decided before the run so that a wrong URL costs one note, not a failed scrape every tick.
 */
public sealed interface ProbeVerdict {

    /** Prometheus text with at least one metric; the scrape serves as the baseline. */
    record Usable(Scrape scrape) implements ProbeVerdict {}

    /**
     * Anything else.
     *
     * @param why  for the note, e.g. {@code answered JSON, not Prometheus text}
     * @param json whether the answer was JSON (trtllm-serve's {@code /metrics} is)
     */
    record Unusable(String why, boolean json) implements ProbeVerdict {}

    /** Classifies one HTTP answer. Pure. */
    static ProbeVerdict of(int status, String contentType, String body) {
        if (status != 200) {
            return new Unusable("answered HTTP " + status, false);
        }
        String type = contentType.toLowerCase(Locale.ROOT);
        String start = body.stripLeading();
        if (type.contains("json") || start.startsWith("{") || start.startsWith("[")) {
            return new Unusable("answered JSON, not Prometheus text", true);
        }
        if (type.contains("html") || start.startsWith("<")) {
            return new Unusable("answered HTML, not Prometheus text", false);
        }
        Scrape scrape = PrometheusTextParser.parse(body);
        if (scrape.families().isEmpty()) {
            return new Unusable("answered no readable metrics (" + scrape.skippedLines() + " lines unreadable)", false);
        }
        return new Usable(scrape);
    }
}
