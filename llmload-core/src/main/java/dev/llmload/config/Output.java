package dev.llmload.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a run writes besides its measurements.
 *
 * @param dir      the run directory; null for {@code results/<timestamp>-<target>-<load>}
 * @param exports  other tools' formats to write too ({@code vllm})
 * @param metadata facts the tool cannot discover, e.g. {@code hardware.gpu_model=H100}
 * @param notes    the user's own notes for the report
 * @param gpuHourPrice what one of the server's GPUs costs per hour, for the cost per token; null when not given
 */
public record Output(
        Path dir, List<String> exports, Map<String, String> metadata, List<String> notes, GpuPrice gpuHourPrice) {

    /** The formats {@code --export} knows. */
    public static final List<String> EXPORTS = List.of("vllm");

    public Output {
        exports = List.copyOf(exports);
        metadata = Map.copyOf(metadata);
        notes = List.copyOf(notes);
        for (String format : exports) {
            if (!EXPORTS.contains(format)) {
                throw new ConfigException("--export: unknown format '" + format + "' (expected vllm)");
            }
        }
    }

    public Output withDir(Path newDir) {
        return new Output(newDir, exports, metadata, notes, gpuHourPrice);
    }
}
