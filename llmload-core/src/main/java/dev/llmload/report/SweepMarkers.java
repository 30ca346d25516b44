package dev.llmload.report;

import java.util.Map;

/**
 * What a sweep page marks on its latency-against-throughput charts. Throughputs are achieved
 * requests per second, the charts' x axis; any of them may be null.
 *
 * @param sloMs              latency objectives drawn as horizontal lines, keyed {@code ttft},
 *                           {@code tpot}, {@code e2e} as in {@code --slo}
 * @param capacityThroughput the highest throughput that still meets the objectives
 * @param kneeThroughput     where latency starts to climb steeply
 */
public record SweepMarkers(Map<String, Double> sloMs, Double capacityThroughput, Double kneeThroughput) {

    public static final SweepMarkers NONE = new SweepMarkers(Map.of(), null, null);

    public SweepMarkers {
        sloMs = sloMs == null ? Map.of() : Map.copyOf(sloMs);
    }
}
