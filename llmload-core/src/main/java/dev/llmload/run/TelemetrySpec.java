package dev.llmload.run;

import java.time.Duration;
import java.util.List;

/**
 * Which telemetry to collect during a run (see docs/telemetry.md).
 *
 * @param serverMetrics     a Prometheus URL, {@code auto} (the target's {@code /metrics} when it
 *                          answers in Prometheus format) or {@code off}
 * @param serverKind        force an engine's metric names ({@code vllm}, {@code sglang}, ...); null to detect
 * @param gpuMetrics        DCGM exporter URLs, one per node
 * @param nvidiaSmi         path of an nvidia-smi to poll locally; null for none
 * @param nvidiaSmiInterval its polling interval
 * @param scrapeInterval    how often the HTTP sources are scraped (at least 100 ms)
 */
public record TelemetrySpec(String serverMetrics, String serverKind, List<String> gpuMetrics, String nvidiaSmi,
                            Duration nvidiaSmiInterval, Duration scrapeInterval) {

    public TelemetrySpec {
        gpuMetrics = List.copyOf(gpuMetrics);
    }

    public static TelemetrySpec auto() {
        return new TelemetrySpec("auto", null, List.of(), null, Duration.ofSeconds(1), Duration.ofSeconds(1));
    }
}
