package dev.llmload.report;

import dev.llmload.config.GpuPrice;
import dev.llmload.metrics.RunResults;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import dev.llmload.telemetry.analysis.TelemetrySummary.GpuStats;

/**
 * {@code efficiency} in report.json: what the measured throughput costs in money and energy. Each
 * figure is null unless every input it needs was given or measured; none is ever assumed.
 *
 * <p>With a price of P per GPU-hour, G GPUs and an output throughput of T tokens/s over the
 * measured phase, a million output tokens take 10⁶ / T seconds of G GPUs:
 * {@code cost = P × G × 10⁶ / (3600 × T)}; the same with the total (input + output) throughput.
 * With the GPUs' mean power draws W₁…W_G over the measured window (DCGM's
 * {@code DCGM_FI_DEV_POWER_USAGE} or nvidia-smi's {@code power.draw}), the energy of one output
 * token is {@code (W₁ + … + W_G) / T} joules: watts are joules per second. It counts the whole
 * draw, idle share included; {@code gpuIdlePowerWatts}, the draw before the first measured
 * request, shows how much of it the load added.
 *
 * @param gpuHourPrice                 {@code --gpu-hour-price}'s amount; null when not given
 * @param currency                     its currency
 * @param gpuCount                     the server's GPUs: {@code hardware.gpu_count} (metadata, else the GPUs telemetry saw)
 * @param costPerMillionOutputTokens   in {@code currency}
 * @param costPerMillionTotalTokens    in {@code currency}, input and output tokens together
 * @param gpuPowerWatts                the GPUs' mean power draws over the measured window, summed, W
 * @param gpuIdlePowerWatts            the same before the first measured request, W
 * @param energyPerOutputTokenJoules   GPU energy per output token, J
 */
public record Efficiency(
        Double gpuHourPrice,
        String currency,
        Integer gpuCount,
        Double costPerMillionOutputTokens,
        Double costPerMillionTotalTokens,
        Double gpuPowerWatts,
        Double gpuIdlePowerWatts,
        Double energyPerOutputTokenJoules) {

    private static final double SECONDS_PER_HOUR = 3600;
    private static final double MILLION = 1e6;

    /** @return null when there is neither a price nor a power reading, so the section is absent */
    public static Efficiency of(RunResults results, Integer gpuCount, TelemetrySummary telemetry, GpuPrice price) {
        Double power = telemetry == null || telemetry.gpu() == null
                ? null
                : sum(telemetry.gpu().gpus().stream()
                        .map(GpuStats::powerWattsMean)
                        .toList());
        Double idle = telemetry == null || telemetry.gpu() == null
                ? null
                : sum(telemetry.gpu().gpus().stream()
                        .map(GpuStats::idlePowerWatts)
                        .toList());
        if (price == null && power == null) {
            return null;
        }
        Double outputRate = positive(results.outputTokenThroughput());
        Double totalRate = positive(results.totalTokenThroughput());
        Double perGpuSecond = price == null || gpuCount == null ? null : price.amount() * gpuCount / SECONDS_PER_HOUR;
        return new Efficiency(
                price == null ? null : price.amount(),
                price == null ? null : price.currency(),
                gpuCount,
                perGpuSecond == null || outputRate == null ? null : perGpuSecond * MILLION / outputRate,
                perGpuSecond == null || totalRate == null ? null : perGpuSecond * MILLION / totalRate,
                power,
                idle,
                power == null || outputRate == null ? null : power / outputRate);
    }

    /** The sum, or null when any GPU lacks the value (a partial sum would understate). */
    private static Double sum(java.util.List<Double> values) {
        if (values.isEmpty() || values.contains(null)) {
            return null;
        }
        return values.stream().mapToDouble(Double::doubleValue).sum();
    }

    private static Double positive(Double value) {
        return value == null || !(value > 0) ? null : value;
    }
}
