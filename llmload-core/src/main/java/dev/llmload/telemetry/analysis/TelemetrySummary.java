package dev.llmload.telemetry.analysis;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.llmload.telemetry.gpu.Hardware;
import java.util.List;

/**
 * What the server and the GPUs showed during the measured window: the report's {@code telemetry}
 * section. Serialised with snake_case keys (docs/telemetry.md lists them); a signal the sources
 * did not expose is {@code null}, never 0.
 *
 * @param serverKind                         the engine whose names were read ({@code vllm}, ...)
 * @param windowS                            the measured window, seconds
 * @param serverScrapes                      server readings used (inside the window plus its edges)
 * @param scrapeGaps                         failed scrapes during the window, all sources
 * @param kvCacheUsage                       KV-cache use, 0–1
 * @param kvCacheSaturatedShare              share of the window with KV use ≥ 0.9
 * @param kvCacheSaturatedWhileWaitingShare  share of the window with KV use ≥ 0.9 and a request waiting
 * @param requestsRunning                    requests in the server's running batch
 * @param requestsWaiting                    requests queued in the server
 * @param preemptions                        preempted (SGLang: retracted) requests
 * @param promptTokens                       prompt tokens the server processed
 * @param generationTokens                   tokens the server generated
 * @param requestsSucceeded                  requests the server finished without abort
 * @param prefixCacheHitRate                 Δhits / Δqueries of the prefix cache, 0–1
 * @param serverQueueTimeMs                  time requests waited in the server
 * @param serverTtftMs                       TTFT as the server measured it
 * @param serverItlMs                        inter-token latency as the server measured it
 * @param simulator                          llmload's simulator's own delays, or {@code null} for any other server
 * @param gpu                                GPU readings, or {@code null} without GPU sources
 * @param hardware                           the GPUs found
 * @param perSecond                          one row per second of the window
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TelemetrySummary(
        String serverKind,
        double windowS,
        int serverScrapes,
        int scrapeGaps,
        GaugeStats kvCacheUsage,
        Double kvCacheSaturatedShare,
        Double kvCacheSaturatedWhileWaitingShare,
        GaugeStats requestsRunning,
        GaugeStats requestsWaiting,
        CounterStats preemptions,
        CounterStats promptTokens,
        CounterStats generationTokens,
        CounterStats requestsSucceeded,
        Double prefixCacheHitRate,
        HistogramStats serverQueueTimeMs,
        HistogramStats serverTtftMs,
        HistogramStats serverItlMs,
        SimulatorStats simulator,
        GpuSummary gpu,
        Hardware hardware,
        List<SecondRow> perSecond) {

    public TelemetrySummary {
        perSecond = List.copyOf(perSecond);
    }

    /**
     * A gauge over the window, each reading holding until the next (time-weighted).
     *
     * @param mean           time-weighted mean over the window
     * @param max            highest value held during the window
     * @param firstThirdMean time-weighted mean over the window's first third
     * @param lastThirdMean  time-weighted mean over the window's last third
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record GaugeStats(Double mean, Double max, Double firstThirdMean, Double lastThirdMean) {}

    /**
     * A counter over the window.
     *
     * @param delta    the increase between the baseline and the end reading (restarts handled)
     * @param ratePerS delta over the time between those two readings
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CounterStats(double delta, double ratePerS) {}

    /**
     * A server histogram over the window (bucket deltas), in milliseconds. Percentiles are
     * Prometheus {@code histogram_quantile} estimates, as coarse as the buckets.
     *
     * @param count       observations in the window
     * @param mean        Δsum / Δcount; {@code null} without observations
     * @param p50Bucket   the bucket p50 lies in, {@code [lower, upper]} ms (upper {@code null} for
     *                    {@code +Inf}): the histogram says only that the percentile is in there;
     *                    {@code p50} is an interpolation inside it
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record HistogramStats(
            long count,
            Double mean,
            Double p50,
            Double p90,
            Double p99,
            List<Double> p50Bucket,
            List<Double> p90Bucket,
            List<Double> p99Bucket) {}

    /**
     * How far llmload's simulator ran behind during the window (docs/simulator.md).
     *
     * @param stepLagMeanMs     its step lag, time-weighted over the window (each reading holding until the next)
     * @param stepLagMaxMs      the highest step lag it reported
     * @param tokenWriteDelayMs from its engine emitting a token to the event's write to the socket
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SimulatorStats(Double stepLagMeanMs, Double stepLagMaxMs, HistogramStats tokenWriteDelayMs) {}

    /**
     * GPUs over the window.
     *
     * @param utilizationMean  mean of the GPUs' mean utilisation, %
     * @param engineActiveMean mean of DCGM_FI_PROF_GR_ENGINE_ACTIVE, 0–1, where exported
     * @param memoryUsedGibMax highest memory in use over all GPUs together (per second), GiB
     * @param memoryTotalGib   memory of all GPUs together, GiB
     * @param gpus             one entry per GPU
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record GpuSummary(
            Double utilizationMean,
            Double engineActiveMean,
            Double memoryUsedGibMax,
            Double memoryTotalGib,
            List<GpuStats> gpus) {
        public GpuSummary {
            gpus = List.copyOf(gpus);
        }
    }

    /**
     * One GPU over the window, from the samples taken inside it.
     *
     * @param memoryUsedMaxShare highest memory used over memory total, 0–1
     * @param powerWattsMean     mean power draw over the samples inside the window, W
     * @param idlePowerWatts     mean power draw over the samples taken before the window (before the
     *                           first measured request), W; null when none was taken then
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record GpuStats(
            String source,
            int index,
            String name,
            String uuid,
            String host,
            Double utilizationMean,
            Double utilizationMax,
            Double engineActiveMean,
            Double memoryUsedGibMax,
            Double memoryTotalGib,
            Double memoryUsedMaxShare,
            Double powerWattsMean,
            Double idlePowerWatts) {}

    /**
     * Second {@code second} of the window, [start + k s, start + (k+1) s): the last reading taken
     * in that second, or {@code null} when none was.
     *
     * @param gpuUtil       mean utilisation over the GPUs, %
     * @param gpuMemUsedGib memory in use over all GPUs, GiB
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SecondRow(
            int second,
            Double kvCacheUsage,
            Double requestsRunning,
            Double requestsWaiting,
            Double gpuUtil,
            Double gpuMemUsedGib) {}
}
