package dev.llmload.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmload.config.OptionTable;
import dev.llmload.config.RunConfig;
import dev.llmload.config.RunOption;
import dev.llmload.report.ReportFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scenario file ({@code --config}): YAML (or JSON) whose keys are the long option names
 * ({@code request-rate}, {@code request_rate} and {@code requestRate} all work), plus
 * {@code metadata} (a mapping), {@code notes} (a list) and {@code model}/{@code service}/
 * {@code hardware} sections that fill the report's record. A {@code report.json} of an earlier
 * run is accepted too: its recorded configuration repeats that run. Which keys exist, and what a
 * recorded configuration says for each, is {@link OptionTable}.
 */
record ConfigFile(Path path, Map<String, List<String>> options, Map<String, String> metadata, List<String> notes) {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static ConfigFile load(Path path) {
        JsonNode root;
        try {
            root = YAML.readTree(Files.readString(path));
        } catch (IOException e) {
            throw new UsageException("--config " + path + ": " + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new UsageException("--config " + path + ": expected a mapping of option names to values");
        }
        Map<String, List<String>> options = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        if (root.has("schema_version") && root.has("config")) {
            fromRecordedConfig(path, root.get("config"), options, metadata, notes);
        } else {
            for (var field : root.properties()) {
                String key = normalise(field.getKey());
                JsonNode value = field.getValue();
                switch (key) {
                    case "metadata" -> value.properties().forEach(e -> metadata.put(e.getKey(), e.getValue().asText()));
                    case "notes" -> value.forEach(n -> notes.add(n.asText()));
                    case "model", "service", "hardware" -> value.properties().forEach(e ->
                            metadata.put(key + "." + snake(e.getKey()), e.getValue().asText()));
                    default -> options.put(key, values(path, field.getKey(), value));
                }
            }
        }
        return new ConfigFile(path, options, metadata, notes);
    }

    /** The (first) value for a long option name (without dashes), or null. */
    String option(String longName) {
        List<String> values = options.get(normalise(longName));
        return values == null ? null : values.getFirst();
    }

    /** Lower-case letters and digits only, so every spelling of a name meets. */
    static String normalise(String key) {
        return key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    private static String snake(String key) {
        return key.replaceAll("([a-z])([A-Z])", "$1_$2").replace('-', '_').toLowerCase(Locale.ROOT);
    }

    /**
     * A key's values: a scalar is one value, commas and all (a header or a stop string may hold
     * them); a list gives one value per item, as the flag given once per item would.
     */
    private static List<String> values(Path path, String key, JsonNode value) {
        if (value.isValueNode()) {
            return List.of(value.asText());
        }
        if (value.isArray() && !value.isEmpty()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(item.asText()));
            return List.copyOf(items);
        }
        throw new UsageException("--config " + path + ": '" + key + "' must be a single value or a non-empty list");
    }

    /**
     * Reads the {@code config} section of a report.json as the run configuration it records, and
     * puts each run option's recorded value ({@link OptionTable}) under its name.
     */
    private static void fromRecordedConfig(Path path, JsonNode recorded, Map<String, List<String>> options,
                                           Map<String, String> metadata, List<String> notes) {
        RunConfig config;
        try {
            config = ReportFiles.JSON.treeToValue(recorded, RunConfig.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException("--config " + path + ": the recorded configuration does not read: "
                    + firstLine(e.getMessage()));
        }
        for (RunOption<?> row : OptionTable.ROWS) {
            Object value = row.replayed().apply(config);
            if (value instanceof List<?> list ? !list.isEmpty() : value != null) {
                options.put(normalise(row.name()), value instanceof List<?> list
                        ? list.stream().map(String::valueOf).toList() : List.of(value.toString()));
            }
        }
        metadata.putAll(config.output().metadata());
        notes.addAll(config.output().notes());
    }

    private static String firstLine(String message) {
        return message == null ? "cannot read" : message.lines().findFirst().orElse(message);
    }
}
