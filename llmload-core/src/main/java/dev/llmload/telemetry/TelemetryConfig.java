package dev.llmload.telemetry;

import dev.llmload.telemetry.engine.EngineKind;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * What to scrape during a run ({@code --server-metrics}, {@code --server-kind},
 * {@code --gpu-metrics}, {@code --nvidia-smi}, {@code --scrape-interval}).
 *
 * @param serverMetrics     the inference server's Prometheus endpoint, or {@code null}
 * @param serverKind        the engine, or {@code null} to detect it from the names exposed
 * @param gpuMetrics        dcgm-exporter endpoints, possibly none
 * @param nvidiaSmi         the nvidia-smi executable to run, or {@code null} not to
 * @param nvidiaSmiInterval how often nvidia-smi prints ({@code -lms})
 * @param scrapeInterval    how often the HTTP endpoints are scraped; at least 100 ms
 */
public record TelemetryConfig(
        URI serverMetrics,
        EngineKind serverKind,
        List<URI> gpuMetrics,
        String nvidiaSmi,
        Duration nvidiaSmiInterval,
        Duration scrapeInterval) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);

    public TelemetryConfig {
        gpuMetrics = List.copyOf(gpuMetrics);
        requireInterval("scrape interval", scrapeInterval);
        requireInterval("nvidia-smi interval", nvidiaSmiInterval);
    }

    /**
     * The floor of every scrape interval, the one place it is checked: the run configuration calls
     * it with the option's name, so a short interval is refused before the run starts.
     *
     * @throws IllegalArgumentException naming {@code what} when {@code interval} is missing or under {@link #MIN_INTERVAL}
     */
    public static void requireInterval(String what, Duration interval) {
        if (interval == null || interval.compareTo(MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException(what + " must be at least 100ms");
        }
    }

    /** Whether anything is to be scraped at all. */
    public boolean isEmpty() {
        return serverMetrics == null && gpuMetrics.isEmpty() && nvidiaSmi == null;
    }

    /**
     * How long one scrape may take: shorter than the interval, so a hung target has given up
     * before its next turn and scrapes never pile up.
     */
    public Duration requestTimeout() {
        return scrapeInterval.multipliedBy(8).dividedBy(10);
    }
}
