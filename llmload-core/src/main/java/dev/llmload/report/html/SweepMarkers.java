package dev.llmload.report.html;

import java.util.List;
import java.util.Map;

/**
 * What a sweep page marks: lines on its latency-against-throughput charts, and each point's role
 * and verdict in its table. Throughputs are achieved requests per second, the charts' x axis; any
 * of the values may be null.
 *
 * @param sloMs              latency objectives drawn as horizontal lines, keyed {@code ttft},
 *                           {@code tpot}, {@code e2e} as in {@code --slo}
 * @param capacityThroughput the request throughput the capacity's run achieved
 * @param capacityLoad       the capacity as the load offered (a rate or a concurrency, per
 *                           {@code axis}): the number sweep.json and the console give
 * @param axis               {@code rate} or {@code concurrency}
 * @param kneeThroughput     where latency starts to climb steeply
 * @param points             each point's role and verdict, keyed by its directory (the run's label)
 */
public record SweepMarkers(
        Map<String, Double> sloMs,
        Double capacityThroughput,
        Double capacityLoad,
        String axis,
        Double kneeThroughput,
        Map<String, PointLabel> points) {

    public static final SweepMarkers NONE = new SweepMarkers(Map.of(), null, null, null, null, Map.of());

    /**
     * @param role       point, baseline, throughput, probe, resized or recheck (sweep.json's roles)
     * @param meetsSlo   null without an SLO
     * @param violations what failed: {@code saturation: ...} first, then each limit missed
     */
    public record PointLabel(String role, Boolean meetsSlo, List<String> violations) {
        public PointLabel {
            violations = violations == null ? List.of() : List.copyOf(violations);
        }
    }

    public SweepMarkers {
        sloMs = sloMs == null ? Map.of() : Map.copyOf(sloMs);
        points = points == null ? Map.of() : Map.copyOf(points);
    }
}
