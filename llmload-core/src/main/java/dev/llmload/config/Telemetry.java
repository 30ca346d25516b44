package dev.llmload.config;

import java.time.Duration;
import java.util.List;

/**
 * Which telemetry to collect during a run (see docs/telemetry.md).
 *
 * @param serverMetrics  a Prometheus URL, {@code auto} (the target's {@code /metrics} when it
 *                       answers in Prometheus format) or {@code off}
 * @param serverKind     force an engine's metric names ({@code vllm}, {@code sglang}, ...); null to detect
 * @param gpuMetrics     DCGM exporter URLs, one per node
 * @param nvidiaSmi      how often the local nvidia-smi is polled; null not to poll it
 * @param scrapeInterval how often the HTTP sources are scraped (at least 100 ms)
 */
public record Telemetry(String serverMetrics, String serverKind, List<String> gpuMetrics, Duration nvidiaSmi,
                        Duration scrapeInterval) {

    public Telemetry {
        gpuMetrics = List.copyOf(gpuMetrics);
        if (serverMetrics == null) {
            throw new ConfigException("--server-metrics: expected a URL, auto or off");
        }
        if (scrapeInterval == null || scrapeInterval.toMillis() < 100) {
            throw new ConfigException("--scrape-interval must be at least 100ms");
        }
    }

    /** The target's own metrics when it has them; no GPU sources. */
    public static Telemetry auto() {
        return new Telemetry("auto", null, List.of(), null, Duration.ofSeconds(1));
    }
}
