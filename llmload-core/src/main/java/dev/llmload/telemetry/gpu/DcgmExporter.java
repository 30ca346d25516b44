package dev.llmload.telemetry.gpu;

import dev.llmload.telemetry.prometheus.MetricFamily;
import dev.llmload.telemetry.prometheus.Sample;
import dev.llmload.telemetry.prometheus.Scrape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads GPU samples from a scrape of NVIDIA's dcgm-exporter. GPUs are told apart by the
 * {@code gpu} label (plus {@code GPU_I_ID} for MIG instances). Total memory is
 * FB_USED + FB_FREE (+ FB_RESERVED when exported), since DCGM's default set has no total.
 * Pure.
 */
public final class DcgmExporter {

    static final String UTIL = "DCGM_FI_DEV_GPU_UTIL";
    static final String FB_USED = "DCGM_FI_DEV_FB_USED";
    static final String FB_FREE = "DCGM_FI_DEV_FB_FREE";
    static final String FB_RESERVED = "DCGM_FI_DEV_FB_RESERVED";
    static final String POWER = "DCGM_FI_DEV_POWER_USAGE";
    static final String ENGINE_ACTIVE = "DCGM_FI_PROF_GR_ENGINE_ACTIVE";
    /** The families {@link #read} takes values from, in the order it reads them. */
    private static final List<String> FIELDS = List.of(UTIL, FB_USED, FB_FREE, FB_RESERVED, POWER, ENGINE_ACTIVE);
    /** {@link #FIELDS}, for a scrape that keeps only what is read. */
    public static final Set<String> FAMILIES = Set.copyOf(FIELDS);

    private DcgmExporter() {}

    /** Whether the scrape looks like dcgm-exporter's. */
    public static boolean recognises(Scrape scrape) {
        return scrape.has(UTIL) || scrape.has(FB_USED);
    }

    /** One sample per GPU the scrape reports, in the order first seen. */
    public static List<GpuSample> read(String source, Scrape scrape) {
        Map<String, Fields> gpus = new LinkedHashMap<>();
        for (String metric : FIELDS) {
            MetricFamily family = scrape.families().get(metric);
            if (family == null) {
                continue;
            }
            for (Sample sample : family.samples()) {
                String gpu = sample.label("gpu");
                if (gpu == null || !sample.name().equals(metric) || Double.isNaN(sample.value())) {
                    continue;
                }
                String instance = sample.label("GPU_I_ID");
                Fields fields =
                        gpus.computeIfAbsent(instance == null ? gpu : gpu + "/" + instance, k -> new Fields(sample));
                fields.values.put(metric, sample.value());
            }
        }
        List<GpuSample> samples = new ArrayList<>(gpus.size());
        for (Fields fields : gpus.values()) {
            samples.add(fields.toSample(source));
        }
        return samples;
    }

    private static final class Fields {
        final Sample first;
        final Map<String, Double> values = new LinkedHashMap<>();

        Fields(Sample first) {
            this.first = first;
        }

        GpuSample toSample(String source) {
            Double used = values.get(FB_USED);
            Double free = values.get(FB_FREE);
            Double total = used != null && free != null ? used + free + values.getOrDefault(FB_RESERVED, 0.0) : null;
            int index;
            try {
                index = Integer.parseInt(first.label("gpu"));
            } catch (NumberFormatException notANumber) {
                index = -1;
            }
            return new GpuSample(
                    source,
                    index,
                    first.label("modelName"),
                    first.label("UUID"),
                    host(first),
                    values.get(UTIL),
                    used,
                    total,
                    values.get(POWER),
                    values.get(ENGINE_ACTIVE));
        }
    }

    /** Current exporters write {@code hostname}, older ones {@code Hostname}. */
    private static String host(Sample sample) {
        for (Map.Entry<String, String> label : sample.labels().entrySet()) {
            if (label.getKey().equalsIgnoreCase("hostname")) {
                return label.getValue();
            }
        }
        return null;
    }
}
