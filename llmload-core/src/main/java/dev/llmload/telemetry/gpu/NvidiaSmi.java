package dev.llmload.telemetry.gpu;

import java.util.List;
import java.util.Optional;

/**
 * The nvidia-smi query llmload runs, and the parsing of its CSV lines. Pure; the process is run
 * by {@link NvidiaSmiPoller}.
 */
public final class NvidiaSmi {

    /** The queried fields, in the order each output line lists them. */
    public static final String QUERY = "index,name,uuid,utilization.gpu,memory.used,memory.total,power.draw";

    /** The source name {@link GpuSample}s from nvidia-smi carry. */
    public static final String SOURCE = "nvidia-smi";

    private NvidiaSmi() {}

    /** The command line: one line per GPU every {@code intervalMs}, without header or units. */
    public static List<String> command(String executable, long intervalMs) {
        return List.of(
                executable, "--query-gpu=" + QUERY, "--format=csv,noheader,nounits", "-lms", Long.toString(intervalMs));
    }

    /**
     * One CSV line, e.g. {@code 0, NVIDIA H100 80GB HBM3, GPU-…, 87, 71234, 81559, 612.45};
     * {@code [N/A]} and {@code [Not Supported]} fields become {@code null}. Empty for a line that
     * is not a GPU line (a warning, a short line, an index that is not a number).
     */
    public static Optional<GpuSample> parseLine(String line) {
        String[] fields = line.split(",", -1);
        if (fields.length != 7) {
            return Optional.empty();
        }
        for (int i = 0; i < fields.length; i++) {
            fields[i] = fields[i].trim();
        }
        int index;
        try {
            index = Integer.parseInt(fields[0]);
        } catch (NumberFormatException notAGpuLine) {
            return Optional.empty();
        }
        return Optional.of(new GpuSample(
                SOURCE,
                index,
                text(fields[1]),
                text(fields[2]),
                null,
                number(fields[3]),
                number(fields[4]),
                number(fields[5]),
                number(fields[6]),
                null));
    }

    private static String text(String field) {
        return field.isEmpty() || field.startsWith("[") ? null : field;
    }

    private static Double number(String field) {
        try {
            return text(field) == null ? null : Double.valueOf(field);
        } catch (NumberFormatException unreadable) {
            return null;
        }
    }
}
