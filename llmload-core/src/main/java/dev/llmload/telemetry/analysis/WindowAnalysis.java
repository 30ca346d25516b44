package dev.llmload.telemetry.analysis;

import dev.llmload.telemetry.ScrapeGap;
import dev.llmload.telemetry.ServerReading;
import dev.llmload.telemetry.TelemetryRecording;
import dev.llmload.telemetry.analysis.TelemetrySummary.CounterStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.GaugeStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.GpuStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.GpuSummary;
import dev.llmload.telemetry.analysis.TelemetrySummary.HistogramStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.SecondRow;
import dev.llmload.telemetry.analysis.TelemetrySummary.SimulatorStats;
import dev.llmload.telemetry.engine.ServerSignals;
import dev.llmload.telemetry.gpu.GpuReading;
import dev.llmload.telemetry.gpu.GpuSample;
import dev.llmload.telemetry.gpu.Hardware;
import dev.llmload.telemetry.prometheus.Histogram;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reduces a {@link TelemetryRecording} to the measured window [start, end] (nanoTime, the run's
 * clock). Pure.
 *
 * <p>Counters and histograms: the difference between the <em>baseline</em> (the last reading
 * answered at or before start; failing that, the first inside the window) and the <em>end</em>
 * reading (the first asked for at or after end, which the collector's final scrape provides;
 * failing that, the last). A reading's counters are from some instant between the scrape's
 * request and its answer, so only these two are sure to hold all of the window: a scrape asked
 * for before the last request ended and answered after it, late on a busy host, has counters
 * from before the end. Rates divide by the time between those two readings, so they are the server's
 * own rate over a span slightly wider than the window, never an invented one.
 *
 * <p>Gauges: each reading holds until the next, so means are time-weighted over the part of the
 * window that readings cover.
 */
public final class WindowAnalysis {

    /** KV-cache use at or above which the cache counts as saturated. */
    public static final double KV_SATURATED = 0.9;

    private static final long SECOND = 1_000_000_000L;
    private static final double MIB_PER_GIB = 1024;

    private WindowAnalysis() {}

    public static TelemetrySummary summarise(TelemetryRecording recording, long start, long end) {
        if (end < start) {
            throw new IllegalArgumentException("window ends before it starts");
        }
        List<ServerReading> server = recording.server().stream()
                .sorted(Comparator.comparingLong(ServerReading::nanos))
                .toList();
        List<GpuReading> gpu = recording.gpu().stream()
                .sorted(Comparator.comparingLong(GpuReading::nanos))
                .toList();
        List<Long> times = server.stream().map(ServerReading::nanos).toList();
        StepSeries kv = gauge(server, times, ServerSignals::kvCacheUsage);
        StepSeries running = gauge(server, times, ServerSignals::requestsRunning);
        StepSeries waiting = gauge(server, times, ServerSignals::requestsWaiting);
        StepSeries saturated = gauge(
                server, times, s -> s.kvCacheUsage() == null ? null : s.kvCacheUsage() >= KV_SATURATED ? 1.0 : 0.0);
        StepSeries saturatedWaiting = gauge(
                server,
                times,
                s -> s.kvCacheUsage() == null || s.requestsWaiting() == null
                        ? null
                        : s.kvCacheUsage() >= KV_SATURATED && s.requestsWaiting() >= 1 ? 1.0 : 0.0);

        int baseline = baseline(times, start);
        int last = endReading(server.stream().map(ServerReading::askedNanos).toList(), end);
        boolean span = baseline >= 0 && last > baseline;
        ServerReading from = span ? server.get(baseline) : null;
        ServerReading to = span ? server.get(last) : null;
        List<ServerReading> between = span ? server.subList(baseline, last + 1) : List.of();

        CounterStats prefixHits = counter(between, ServerSignals::prefixCacheHits);
        CounterStats prefixQueries = counter(between, ServerSignals::prefixCacheQueries);
        Double hitRate = prefixHits != null && prefixQueries != null && prefixQueries.delta() > 0
                ? prefixHits.delta() / prefixQueries.delta()
                : null;

        List<SecondRow> perSecond = perSecond(kv, running, waiting, gpu, start, end);
        int gaps = (int) recording.gaps().stream()
                .map(ScrapeGap::nanos)
                .filter(t -> t >= start && t <= end)
                .count();
        List<GpuSample> seen = gpu.stream().map(GpuReading::sample).toList();

        return new TelemetrySummary(
                recording.serverKind() == null ? null : recording.serverKind().cliName(),
                (end - start) / 1e9,
                span ? last - baseline + 1 : 0,
                gaps,
                gaugeStats(kv, start, end),
                saturated.mean(start, end),
                saturatedWaiting.mean(start, end),
                gaugeStats(running, start, end),
                gaugeStats(waiting, start, end),
                counter(between, ServerSignals::preemptions),
                counter(between, ServerSignals::promptTokens),
                counter(between, ServerSignals::generationTokens),
                counter(between, ServerSignals::requestsSucceeded),
                hitRate,
                histogram(from, to, r -> r.signals().queueTime()),
                histogram(from, to, r -> r.signals().timeToFirstToken()),
                histogram(from, to, r -> r.signals().interTokenLatency()),
                simulatorStats(server, times, from, to, start, end),
                gpuSummary(gpu, perSecond, start, end),
                seen.isEmpty() ? null : Hardware.from(seen),
                perSecond);
    }

    private static StepSeries gauge(
            List<ServerReading> server, List<Long> times, Function<ServerSignals, Double> signal) {
        return StepSeries.of(
                times, server.stream().map(r -> signal.apply(r.signals())).toList());
    }

    private static GaugeStats gaugeStats(StepSeries series, long start, long end) {
        Double mean = series.mean(start, end);
        if (mean == null) {
            return null;
        }
        long third = (end - start) / 3;
        return new GaugeStats(
                mean, series.max(start, end), series.mean(start, start + third), series.mean(end - third, end));
    }

    /** Index of the last reading at or before start, else the first inside the window; -1 if none. */
    static int baseline(List<Long> times, long start) {
        int at = -1;
        for (int i = 0; i < times.size() && times.get(i) <= start; i++) {
            at = i;
        }
        return at >= 0 || times.isEmpty() ? at : 0;
    }

    /**
     * Index of the first reading asked for at or after end, else the last one; -1 if none.
     * {@code askedTimes} in the order of the readings' answers.
     */
    static int endReading(List<Long> askedTimes, long end) {
        for (int i = 0; i < askedTimes.size(); i++) {
            if (askedTimes.get(i) >= end) {
                return i;
            }
        }
        return askedTimes.size() - 1;
    }

    /**
     * The increase of a counter over the readings given (baseline first, end last), counting a
     * drop as a server restart from 0, as Prometheus' {@code increase} does; {@code null} when
     * the counter is missing from the first or the last reading.
     */
    static CounterStats counter(List<ServerReading> readings, Function<ServerSignals, Double> signal) {
        if (readings.size() < 2) {
            return null;
        }
        Double first = signal.apply(readings.getFirst().signals());
        Double lastValue = signal.apply(readings.getLast().signals());
        if (first == null || lastValue == null) {
            return null;
        }
        double delta = 0;
        double previous = first;
        for (ServerReading reading : readings.subList(1, readings.size())) {
            Double value = signal.apply(reading.signals());
            if (value == null) {
                continue;
            }
            delta += value >= previous ? value - previous : value;
            previous = value;
        }
        double seconds = (readings.getLast().nanos() - readings.getFirst().nanos()) / 1e9;
        return new CounterStats(delta, delta / seconds);
    }

    /** {@code null} unless the server is llmload's simulator. */
    private static SimulatorStats simulatorStats(
            List<ServerReading> server, List<Long> times, ServerReading from, ServerReading to, long start, long end) {
        if (server.stream().allMatch(r -> r.simulator() == null)) {
            return null;
        }
        StepSeries stepLag = StepSeries.of(
                times,
                server.stream()
                        .map(r -> r.simulator() == null ? null : r.simulator().stepLagSeconds())
                        .toList());
        Double lagMean = stepLag.mean(start, end);
        Double lagMax = stepLag.max(start, end);
        return new SimulatorStats(
                lagMean == null ? null : ms(lagMean),
                lagMax == null ? null : ms(lagMax),
                histogram(
                        from,
                        to,
                        r -> r.simulator() == null ? null : r.simulator().tokenWriteDelay()));
    }

    private static HistogramStats histogram(
            ServerReading from, ServerReading to, Function<ServerReading, Histogram> signal) {
        if (from == null) {
            return null;
        }
        Histogram before = signal.apply(from);
        Histogram after = signal.apply(to);
        if (before == null || after == null) {
            return null;
        }
        Histogram window = after.minus(before);
        return new HistogramStats(
                Math.round(window.count()),
                ms(window.mean()),
                ms(window.quantile(0.5)),
                ms(window.quantile(0.9)),
                ms(window.quantile(0.99)),
                bucketMs(window, 0.5),
                bucketMs(window, 0.9),
                bucketMs(window, 0.99));
    }

    /** The quantile's bucket in ms, {@code +Inf} as null (JSON has no infinity); null when there is none. */
    private static List<Double> bucketMs(Histogram histogram, double q) {
        double[] bucket = histogram.quantileBucket(q);
        if (bucket == null) {
            return null;
        }
        return java.util.Arrays.asList(bucket[0] * 1000, Double.isInfinite(bucket[1]) ? null : bucket[1] * 1000);
    }

    private static Double ms(double seconds) {
        return Double.isNaN(seconds) ? null : seconds * 1000;
    }

    private static List<SecondRow> perSecond(
            StepSeries kv, StepSeries running, StepSeries waiting, List<GpuReading> gpu, long start, long end) {
        int seconds = (int) ((end - start + SECOND - 1) / SECOND);
        List<SecondRow> rows = new ArrayList<>(seconds);
        for (int k = 0; k < seconds; k++) {
            long from = start + k * SECOND;
            long to = from + SECOND;
            Map<String, GpuSample> latest = new LinkedHashMap<>();
            for (GpuReading reading : gpu) {
                if (reading.nanos() >= from && reading.nanos() < to) {
                    latest.put(reading.sample().key(), reading.sample());
                }
            }
            rows.add(new SecondRow(
                    k,
                    kv.lastIn(from, to),
                    running.lastIn(from, to),
                    waiting.lastIn(from, to),
                    mean(latest.values().stream()
                            .map(GpuSample::utilizationPercent)
                            .toList()),
                    sumGib(latest.values().stream()
                            .map(GpuSample::memoryUsedMib)
                            .toList())));
        }
        return rows;
    }

    private static GpuSummary gpuSummary(List<GpuReading> gpu, List<SecondRow> perSecond, long start, long end) {
        Map<String, List<GpuSample>> byGpu = new LinkedHashMap<>();
        Map<String, List<Double>> idlePower = new LinkedHashMap<>();
        for (GpuReading reading : gpu) {
            if (reading.nanos() >= start && reading.nanos() <= end) {
                byGpu.computeIfAbsent(reading.sample().key(), k -> new ArrayList<>())
                        .add(reading.sample());
            } else if (reading.nanos() < start) {
                idlePower
                        .computeIfAbsent(reading.sample().key(), k -> new ArrayList<>())
                        .add(reading.sample().powerWatts());
            }
        }
        if (byGpu.isEmpty()) {
            return null;
        }
        List<GpuStats> stats = new ArrayList<>();
        for (List<GpuSample> samples : byGpu.values()) {
            GpuSample latest = samples.getLast();
            Double usedMax = max(samples.stream().map(GpuSample::memoryUsedMib).toList());
            Double total = latest.memoryTotalMib();
            Double shareMax = max(samples.stream()
                    .map(s -> s.memoryUsedMib() != null && s.memoryTotalMib() != null && s.memoryTotalMib() > 0
                            ? s.memoryUsedMib() / s.memoryTotalMib()
                            : null)
                    .toList());
            stats.add(new GpuStats(
                    latest.source(),
                    latest.index(),
                    latest.name(),
                    latest.uuid(),
                    latest.host(),
                    mean(samples.stream().map(GpuSample::utilizationPercent).toList()),
                    max(samples.stream().map(GpuSample::utilizationPercent).toList()),
                    mean(samples.stream().map(GpuSample::engineActive).toList()),
                    usedMax == null ? null : usedMax / MIB_PER_GIB,
                    total == null ? null : total / MIB_PER_GIB,
                    shareMax,
                    mean(samples.stream().map(GpuSample::powerWatts).toList()),
                    mean(idlePower.getOrDefault(latest.key(), List.of()))));
        }
        return new GpuSummary(
                mean(stats.stream().map(GpuStats::utilizationMean).toList()),
                mean(stats.stream().map(GpuStats::engineActiveMean).toList()),
                max(perSecond.stream().map(SecondRow::gpuMemUsedGib).toList()),
                stats.stream().anyMatch(s -> s.memoryTotalGib() == null)
                        ? null
                        : stats.stream().mapToDouble(GpuStats::memoryTotalGib).sum(),
                stats);
    }

    private static Double mean(List<Double> values) {
        double sum = 0;
        int n = 0;
        for (Double value : values) {
            if (value != null) {
                sum += value;
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }

    private static Double max(List<Double> values) {
        Double max = null;
        for (Double value : values) {
            if (value != null && (max == null || value > max)) {
                max = value;
            }
        }
        return max;
    }

    private static Double sumGib(List<Double> mib) {
        double sum = 0;
        boolean any = false;
        for (Double value : mib) {
            if (value != null) {
                sum += value;
                any = true;
            }
        }
        return any ? sum / MIB_PER_GIB : null;
    }
}
