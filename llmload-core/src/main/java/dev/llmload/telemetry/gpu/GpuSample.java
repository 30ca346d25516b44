package dev.llmload.telemetry.gpu;

/**
 * One GPU's readings at one moment, from nvidia-smi or a DCGM exporter. A field the source does
 * not report (nvidia-smi's {@code [N/A]}, a DCGM field not enabled) is {@code null}.
 *
 * @param source             where it came from: a DCGM URL or {@code nvidia-smi}
 * @param index              the GPU's index on its host
 * @param name               the model, e.g. {@code NVIDIA H100 80GB HBM3}
 * @param uuid               the GPU's UUID; identifies it across sources
 * @param host               the host name when the source reports one (DCGM)
 * @param utilizationPercent share of time a kernel ran, 0–100 (nvidia-smi / DCGM_FI_DEV_GPU_UTIL)
 * @param memoryUsedMib      framebuffer memory in use, MiB
 * @param memoryTotalMib     framebuffer memory in all, MiB
 * @param powerWatts         power draw, W
 * @param engineActive       DCGM_FI_PROF_GR_ENGINE_ACTIVE, 0–1: a finer "busy" than utilisation
 */
public record GpuSample(
        String source,
        int index,
        String name,
        String uuid,
        String host,
        Double utilizationPercent,
        Double memoryUsedMib,
        Double memoryTotalMib,
        Double powerWatts,
        Double engineActive) {

    /** Identifies the GPU across scrapes and sources: its UUID, else source and index. */
    public String key() {
        return uuid != null ? uuid : source + "#" + (host == null ? "" : host + "#") + index;
    }
}
