package dev.llmload.telemetry.gpu;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The GPUs found during a run, for the report's {@code hardware} section. Unknown values are
 * {@code null}.
 *
 * @param gpuModel     the model name; mixed models are listed as {@code "2x A, 1x B"}
 * @param gpuCount     distinct GPUs seen (by UUID across sources)
 * @param gpuMemoryGib memory of one GPU in GiB (the largest, if they differ)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Hardware(String gpuModel, Integer gpuCount, Double gpuMemoryGib) {

    public static final Hardware UNKNOWN = new Hardware(null, null, null);

    /** From any samples of the run; the latest sample of each GPU stands for it. */
    public static Hardware from(Collection<GpuSample> samples) {
        Map<String, GpuSample> byGpu = new LinkedHashMap<>();
        for (GpuSample sample : samples) {
            byGpu.put(sample.key(), sample);
        }
        if (byGpu.isEmpty()) {
            return UNKNOWN;
        }
        Map<String, Long> models = byGpu.values().stream()
                .filter(s -> s.name() != null)
                .collect(Collectors.groupingBy(GpuSample::name, TreeMap::new, Collectors.counting()));
        String model = switch (models.size()) {
            case 0 -> null;
            case 1 -> models.keySet().iterator().next();
            default ->
                models.entrySet().stream()
                        .map(e -> e.getValue() + "x " + e.getKey())
                        .collect(Collectors.joining(", "));
        };
        Double memory = byGpu.values().stream()
                .map(GpuSample::memoryTotalMib)
                .filter(m -> m != null)
                .max(Double::compare)
                .map(mib -> mib / 1024)
                .orElse(null);
        return new Hardware(model, byGpu.size(), memory);
    }
}
