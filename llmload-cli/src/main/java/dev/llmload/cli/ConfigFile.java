package dev.llmload.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmload.config.OptionTable;
import dev.llmload.config.ReportLayout;
import dev.llmload.config.RunOption;
import dev.llmload.http.ServerText;
import dev.llmload.report.ReportFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A scenario file ({@code --config}): YAML (or JSON) whose keys are the long option names
 * ({@code request-rate}, {@code request_rate} and {@code requestRate} all work), plus
 * {@code metadata} (a mapping), {@code notes} (a list) and {@code model}/{@code service}/
 * {@code hardware} sections that fill the report's record. A {@code report.json} of an earlier
 * run is accepted too: its recorded configuration repeats that run, each row of {@link OptionTable}
 * reading its typed value from the {@code config} section ({@link ReportLayout}). Which keys exist,
 * and what a recorded configuration says for each, is {@link OptionTable}.
 *
 * @param options  a scenario file's values by normalised name, as a flag would give them
 * @param recorded a report.json's values by row, typed, but its metadata and notes (which are
 *                 {@code metadata} and {@code notes}); empty for a scenario file
 */
record ConfigFile(
        Path path,
        Map<String, List<String>> options,
        Map<String, String> metadata,
        List<String> notes,
        Map<RunOption<?>, Object> recorded) {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The keys that are sections of the report's record, not options. */
    private static final List<String> SECTIONS = List.of("metadata", "notes", "model", "service", "hardware");

    /**
     * A top-level key as written, where it stands, and its value.
     *
     * @param at {@code FILE:LINE:COLUMN} of the key
     */
    private record Field(String key, String at, int line, JsonNode value) {}

    /**
     * Reads a scenario file or a report.json. Whatever is wrong is one line that says where: a file
     * that is not there, YAML that does not parse ({@code FILE:LINE:COLUMN: reason}), an unknown
     * key (with the option it is nearest to, or llmload's spelling of another tool's flag), a key
     * given twice.
     */
    static ConfigFile load(Path path) {
        List<Field> fields = fields(path, read(path));
        Map<String, List<String>> options = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        Map<String, Field> byKey = new LinkedHashMap<>();
        for (Field field : fields) {
            Field earlier = byKey.putIfAbsent(normalise(field.key()), field);
            if (earlier != null) {
                throw new UsageException("--config " + field.at() + ": '" + field.key()
                        + "' is given twice (also on line " + earlier.line() + ")");
            }
        }
        if (byKey.containsKey("schemaversion") && byKey.containsKey("config")) {
            return fromRecordedConfig(path, byKey.get("config").value());
        }
        for (Field field : fields) {
            String key = normalise(field.key());
            JsonNode value = field.value();
            switch (key) {
                case "metadata" ->
                    value.properties()
                            .forEach(e -> metadata.put(e.getKey(), e.getValue().asText()));
                case "notes" -> value.forEach(n -> notes.add(n.asText()));
                case "model", "service", "hardware" ->
                    value.properties()
                            .forEach(e -> metadata.put(
                                    key + "." + snake(e.getKey()), e.getValue().asText()));
                default -> {
                    if (RunOptions.key(key) == null) {
                        throw new UsageException("--config " + field.at() + ": " + unknown(field.key()));
                    }
                    options.put(key, values(field));
                }
            }
        }
        return new ConfigFile(path, options, metadata, notes, Map.of());
    }

    /** Whether the file gives a value for a normalised option name. */
    boolean sets(String name) {
        return options.containsKey(name)
                || recorded.keySet().stream()
                        .anyMatch(row -> normalise(row.name()).equals(name));
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (NoSuchFileException e) {
            throw new UsageException("--config " + path + ": no such file");
        } catch (AccessDeniedException e) {
            throw new UsageException("--config " + path + ": not readable (permission denied)");
        } catch (CharacterCodingException e) {
            throw new UsageException("--config " + path + ": not UTF-8 text");
        } catch (IOException e) {
            throw new UsageException("--config " + path + ": "
                    + (Files.isDirectory(path) ? "a directory, not a file" : firstLine(e.getMessage())));
        }
    }

    /** The top-level keys in the order written, each with its line and column. */
    private static List<Field> fields(Path path, String text) {
        List<Field> fields = new ArrayList<>();
        try (JsonParser parser = YAML.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new UsageException("--config " + path + ": expected a mapping of option names to values");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                JsonLocation location = parser.currentTokenLocation();
                parser.nextToken();
                fields.add(new Field(key, at(path, location), location.getLineNr(), YAML.readTree(parser)));
            }
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
                // The parser's own position is where it stopped, often the line before the problem.
                Mark mark = yaml.getProblemMark();
                throw new UsageException("--config " + path + ":" + (mark.getLine() + 1) + ":" + (mark.getColumn() + 1)
                        + ": "
                        + ServerText.clean(
                                (yaml.getContext() == null ? "" : yaml.getContext() + ": ") + yaml.getProblem()));
            }
            throw new UsageException("--config " + at(path, e.getLocation()) + ": "
                    + ServerText.clean(firstLine(e.getOriginalMessage())));
        } catch (IOException e) {
            throw new UsageException("--config " + path + ": " + firstLine(e.getMessage()));
        }
        return fields;
    }

    /** {@code FILE:LINE:COLUMN}, as compilers write it, so that an editor or terminal can go there. */
    private static String at(Path path, JsonLocation location) {
        return location == null || location.getLineNr() < 1
                ? path.toString()
                : path + ":" + location.getLineNr() + ":" + location.getColumnNr();
    }

    /** An unknown key's line: llmload's spelling of another tool's flag, or the nearest keys. */
    private static String unknown(String key) {
        String spelling = PeerSpellings.spelling("--" + snake(key).replace('_', '-'));
        if (spelling != null) {
            return "unknown option '" + key + "': " + spelling;
        }
        List<String> names = new ArrayList<>(SECTIONS);
        names.addAll(RunOptions.keys());
        List<String> near = PeerSpellings.nearest(key, names);
        return "unknown option '" + key + "'"
                + (near.isEmpty()
                        ? ""
                        : "; did you mean "
                                + near.stream().map(n -> "'" + n + "'").collect(Collectors.joining(" or ")) + "?");
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
    private static List<String> values(Field field) {
        JsonNode value = field.value();
        if (value.isValueNode()) {
            return List.of(value.asText());
        }
        if (value.isArray() && !value.isEmpty()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(item.asText()));
            return List.copyOf(items);
        }
        throw new UsageException(
                "--config " + field.at() + ": '" + field.key() + "' must be a single value or a " + "non-empty list");
    }

    /**
     * Reads the {@code config} section of a report.json: each recorded row's typed value, as the
     * row reads it back ({@link ReportLayout#values}), but what a repeat chooses anew (its run
     * directory, its start).
     */
    @SuppressWarnings("unchecked")
    private static ConfigFile fromRecordedConfig(Path path, JsonNode section) {
        Map<RunOption<?>, Object> recorded;
        try {
            recorded = ReportLayout.values(new ReportLayout.Section(section, ReportFiles.JSON::treeToValue), true);
        } catch (UncheckedIOException e) {
            throw doesNotRead(path, e.getCause());
        } catch (IllegalArgumentException e) {
            throw doesNotRead(path, e);
        }
        // The file's own sections, as a scenario file's: merged with the command line's, not replaced by them.
        Map<String, String> metadata = (Map<String, String>) recorded.remove(OptionTable.METADATA);
        List<String> notes = (List<String>) recorded.remove(OptionTable.NOTE);
        return new ConfigFile(
                path, Map.of(), metadata == null ? Map.of() : metadata, notes == null ? List.of() : notes, recorded);
    }

    private static UsageException doesNotRead(Path path, Exception e) {
        return new UsageException(
                "--config " + path + ": the recorded configuration does not read: " + firstLine(e.getMessage()));
    }

    private static String firstLine(String message) {
        return message == null ? "cannot read" : message.lines().findFirst().orElse(message);
    }
}
