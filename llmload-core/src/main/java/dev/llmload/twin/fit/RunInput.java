package dev.llmload.twin.fit;

import java.util.List;

/**
 * What the fit reads of one run.
 *
 * @param name       the run, for the report (its directory)
 * @param requests   its succeeded streamed requests
 * @param originNanos the start of the run's telemetry second 0, on the requests' clock
 * @param kvUsage    the server's KV cache use (0–1) per second from {@code originNanos}: the last
 *                   reading within each second; empty when the server's metrics were not scraped
 *                   (a null entry is a second without a reading)
 * @param scrapeIntervalNanos how often the server was read, so the last reading of a second lies
 *                   within this much of its end (at most a second)
 */
public record RunInput(
        String name, List<RequestTimeline> requests, long originNanos, List<Double> kvUsage, long scrapeIntervalNanos) {

    public RunInput {
        requests = List.copyOf(requests);
        kvUsage = kvUsage == null
                ? List.of()
                : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(kvUsage));
    }
}
