package dev.llmload.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
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
 * run is accepted too: its recorded configuration repeats that run.
 */
record ConfigFile(Path path, Map<String, String> options, Map<String, String> metadata, List<String> notes) {

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
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        if (root.has("schema_version") && root.has("config")) {
            fromRecordedConfig(root.get("config"), options, metadata, notes);
        } else {
            for (var field : root.properties()) {
                String key = normalise(field.getKey());
                JsonNode value = field.getValue();
                switch (key) {
                    case "metadata" -> value.properties().forEach(e -> metadata.put(e.getKey(), e.getValue().asText()));
                    case "notes" -> value.forEach(n -> notes.add(n.asText()));
                    case "model", "service", "hardware" -> value.properties().forEach(e ->
                            metadata.put(key + "." + snake(e.getKey()), e.getValue().asText()));
                    default -> options.put(key, scalar(path, field.getKey(), value));
                }
            }
        }
        return new ConfigFile(path, options, metadata, notes);
    }

    /** The value for a long option name (without dashes), or null. */
    String option(String longName) {
        return options.get(normalise(longName));
    }

    /** Lower-case letters and digits only, so every spelling of a name meets. */
    static String normalise(String key) {
        return key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    private static String snake(String key) {
        return key.replaceAll("([a-z])([A-Z])", "$1_$2").replace('-', '_').toLowerCase(Locale.ROOT);
    }

    private static String scalar(Path path, String key, JsonNode value) {
        if (value.isValueNode()) {
            return value.asText();
        }
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(item.asText()));
            return String.join(",", items);
        }
        throw new UsageException("--config " + path + ": '" + key + "' must be a single value or a list");
    }

    /** Maps the {@code config} section of a report.json back to option names. */
    private static void fromRecordedConfig(JsonNode config, Map<String, String> options, Map<String, String> metadata,
                                           List<String> notes) {
        put(options, "url", config.get("url"));
        put(options, "api", config.get("api"));
        put(options, "model", config.get("model"));
        if (config.path("stream").isBoolean() && !config.get("stream").asBoolean()) {
            options.put("nostream", "true");
        }
        if (config.path("ignore_eos").isBoolean() && !config.get("ignore_eos").asBoolean()) {
            options.put("noignoreeos", "true");
        }
        JsonNode load = config.path("load");
        if ("open".equals(load.path("mode").asText())) {
            put(options, "requestrate", load.get("request_rate"));
            put(options, "arrival", load.get("arrival"));
            put(options, "burstiness", load.get("burstiness"));
            put(options, "maxconcurrency", load.get("max_concurrency"));
            String arrival = load.path("arrival").asText();
            if (arrival.equals("ramp") || arrival.equals("stages") || arrival.equals("bursts")) {
                put(options, arrival, load.get("profile"));
            }
        } else {
            put(options, "concurrency", load.get("concurrency"));
            put(options, "concurrencyprofile", load.get("profile"));
        }
        put(options, "numrequests", config.get("num_requests"));
        put(options, "duration", config.get("duration"));
        put(options, "warmup", config.get("warmup_time").isNull() ? config.get("warmup") : config.get("warmup_time"));
        JsonNode data = config.path("data");
        put(options, "inputtokens", data.get("input_tokens"));
        put(options, "outputtokens", data.get("output_tokens"));
        put(options, "rangeratio", data.get("range_ratio"));
        put(options, "dataset", data.get("dataset"));
        put(options, "datasetformat", data.get("dataset_format"));
        put(options, "sharedprefix", data.get("shared_prefix"));
        put(options, "trace", data.get("trace"));
        put(options, "tracespeed", data.get("trace_speed"));
        put(options, "tokenizer", data.get("tokenizer"));
        put(options, "batchsize", data.get("batch_size"));
        JsonNode images = data.path("images");
        if (images.isObject()) {
            options.put("images", images.path("count").asInt() + ":" + images.path("width").asInt() + "x"
                    + images.path("height").asInt());
        }
        JsonNode sessions = data.path("sessions");
        put(options, "sessions", sessions.get("turns"));
        put(options, "thinktime", sessions.get("think_time_ms"));
        put(options, "maxsessions", sessions.get("max_sessions"));
        if (options.containsKey("sessions")) {
            // A closed loop of sessions records its session count as the concurrency too.
            options.remove("concurrency");
        }
        put(options, "seed", config.get("seed"));
        JsonNode timeouts = config.path("timeouts");
        put(options, "connecttimeout", timeouts.get("connect"));
        put(options, "firsttokentimeout", timeouts.get("first_token"));
        put(options, "idletimeout", timeouts.get("idle"));
        put(options, "requesttimeout", timeouts.get("total"));
        put(options, "grace", config.get("grace"));
        put(options, "iothreads", config.get("io_threads"));
        put(options, "slo", config.get("slo"));
        put(options, "scenario", config.get("scenario"));
        List<String> exports = new ArrayList<>();
        config.path("exports").forEach(e -> exports.add(e.asText()));
        if (!exports.isEmpty()) {
            options.put("export", String.join(",", exports));
        }
        if (config.path("insecure").asBoolean(false)) {
            options.put("insecure", "true");
        }
        config.path("metadata").properties().forEach(e -> metadata.put(e.getKey(), e.getValue().asText()));
        config.path("notes").forEach(n -> notes.add(n.asText()));
    }

    private static void put(Map<String, String> options, String key, JsonNode value) {
        if (value != null && !value.isNull() && !value.isMissingNode()) {
            options.put(key, value.asText());
        }
    }

    private static String firstLine(String message) {
        return message == null ? "cannot read" : message.lines().findFirst().orElse(message);
    }
}
