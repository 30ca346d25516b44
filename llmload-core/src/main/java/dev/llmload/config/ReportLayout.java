package dev.llmload.config;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import dev.llmload.config.RunOption.Report;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * report.json's {@code config} section, made from {@link OptionTable}'s rows: each row's
 * {@link Report.Key} names the keys it writes ({@link Field}s, read from the typed configuration)
 * and reads its value back from a recorded section, which is set on a {@link RunConfig.Builder}.
 * Writing walks the rows; reading walks them again and builds, so a recorded configuration is
 * checked as a command line is, and a parameter an old report recorded but its run never used (a
 * burstiness without gamma arrivals, a rate beside a ramp) is dropped by its row's reader.
 *
 * <p>The keys earlier versions wrote keep their order ({@link #EARLIER_KEYS}), so report.json stays
 * as it was; a key of a new row follows them, at the end of its object, in the table's order.
 */
public final class ReportLayout {

    private ReportLayout() {}

    /**
     * The keys of the {@code config} section in the order every earlier version wrote them. A
     * history, not a list to extend: a new row's keys are written after these.
     */
    static final List<String> EARLIER_KEYS = List.of(
            "url",
            "api",
            "model",
            "stream",
            "ignore_eos",
            "load",
            "num_requests",
            "duration",
            "warmup",
            "warmup_time",
            "data.input_tokens",
            "data.output_tokens",
            "data.range_ratio",
            "data.dataset",
            "data.dataset_format",
            "data.shared_prefix",
            "data.trace",
            "data.trace_speed",
            "data.tokenizer",
            "data.sessions",
            "data.batch_size",
            "data.images",
            "seed",
            "timeouts.connect",
            "timeouts.first_token",
            "timeouts.idle",
            "timeouts.total",
            "timeouts.limits",
            "telemetry.server_metrics",
            "telemetry.server_kind",
            "telemetry.gpu_metrics",
            "telemetry.nvidia_smi",
            "telemetry.nvidia_smi_interval",
            "telemetry.scrape_interval",
            "grace",
            "output_dir",
            "metadata",
            "notes",
            "insecure",
            "io_threads",
            "scenario",
            "slo",
            "exports",
            "segment",
            "start_at",
            "start_instant",
            "gpu_hour_price",
            "stop_on_saturation",
            "headers",
            "extra_body",
            "temperature",
            "top_p",
            "top_k",
            "stop");

    /**
     * One key of the {@code config} section and its value in a configuration, which Jackson writes
     * (a time as ISO-8601, a path as a URI, a record as an object). A key that several rows are
     * recorded in (the {@code load} object, a closed or open loop's {@code profile}) is one field
     * that those rows share.
     *
     * @param path   dot-separated, snake_case ({@code timeouts.connect})
     * @param value  the value in a configuration; null for none
     * @param always whether the key is written (as null) without a value; false leaves it out, as
     *               for every key earlier versions did not write
     */
    public record Field(String path, Function<RunConfig, ?> value, boolean always) {

        public Field {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(value, path);
        }

        /** Written in every report, null when the configuration has no value. */
        public static Field always(String path, Function<RunConfig, ?> value) {
            return new Field(path, value, true);
        }

        /** Written only when the configuration has a value. */
        public static Field whenSet(String path, Function<RunConfig, ?> value) {
            return new Field(path, value, false);
        }
    }

    /**
     * A recorded {@code config} section as a row reads it: values at dot-separated paths, typed
     * as report.json writes them. A key that is absent or null reads as null.
     */
    public static final class Section {

        /** Reads a JSON value as a Java type, as the report's mapper does. */
        @FunctionalInterface
        public interface Convert {
            Object apply(JsonNode node, Class<?> type) throws IOException;
        }

        private final JsonNode section;
        private final Convert convert;

        public Section(JsonNode section, Convert convert) {
            this.section = Objects.requireNonNull(section, "section");
            this.convert = Objects.requireNonNull(convert, "convert");
        }

        /** The value at {@code path} as {@code type}; null when absent or null. */
        public <W> W get(String path, Class<W> type) {
            JsonNode node = node(path);
            if (node == null) {
                return null;
            }
            try {
                return type.cast(convert.apply(node, type));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The JSON value at {@code path}; null when absent or null. */
        public JsonNode node(String path) {
            JsonNode node = section.at("/" + path.replace('.', '/'));
            return node.isMissingNode() || node.isNull() ? null : node;
        }

        /** A list of strings at {@code path}; null when absent, null or empty. */
        public List<String> texts(String path) {
            JsonNode node = node(path);
            if (node == null || !node.isArray() || node.isEmpty()) {
                return null;
            }
            List<String> items = new ArrayList<>();
            node.forEach(item -> items.add(item.asText()));
            return List.copyOf(items);
        }

        /** A map of strings at {@code path}, in the order written; null when absent, null or empty. */
        public Map<String, String> pairs(String path) {
            JsonNode node = node(path);
            if (node == null || !node.isObject() || node.isEmpty()) {
                return null;
            }
            Map<String, String> pairs = new LinkedHashMap<>();
            node.properties().forEach(e -> pairs.put(e.getKey(), e.getValue().asText()));
            return pairs;
        }
    }

    /**
     * The {@code config} section of a configuration: every row's fields, in the order of
     * {@link #EARLIER_KEYS} and then of the table, as nested maps for the report's mapper to write.
     */
    public static Map<String, Object> write(RunConfig config) {
        Map<String, Object> section = new LinkedHashMap<>();
        for (Field field : fields()) {
            Object value = field.value().apply(config);
            if (value != null || field.always()) {
                put(section, field.path(), value);
            }
        }
        return section;
    }

    /**
     * The value each recorded row has in a recorded section, typed as the row's reader gives it to
     * the builder; a row the section has no value for is not in the map.
     *
     * @param repeatedOnly only the rows a repeat of the run takes ({@link Report.Key#repeated})
     */
    public static Map<RunOption<?>, Object> values(Section section, boolean repeatedOnly) {
        Map<RunOption<?>, Object> values = new LinkedHashMap<>();
        for (RunOption<?> row : OptionTable.ROWS) {
            if (row.report() instanceof Report.Key<?> key && (key.repeated() || !repeatedOnly)) {
                Object value = key.read().apply(section);
                if (value != null) {
                    values.put(row, value);
                }
            }
        }
        return values;
    }

    /**
     * The configuration a recorded section describes, made by the builder from every row's value.
     * It is the record of a run that is over: the files it read are not looked for again and the
     * environment is not read, so its start instant is the one recorded.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static RunConfig read(Section section) {
        RunConfig.Builder builder = RunConfig.builder();
        values(section, false).forEach((row, value) -> builder.set((RunOption) row, value));
        return builder.buildRecorded(section.get("start_instant", Instant.class));
    }

    /** Every distinct field of the rows, in the order they are written. */
    static List<Field> fields() {
        Map<String, Field> byPath = new LinkedHashMap<>();
        for (RunOption<?> row : OptionTable.ROWS) {
            if (row.report() instanceof Report.Key<?> key) {
                for (Field field : key.fields()) {
                    Field earlier = byPath.putIfAbsent(field.path(), field);
                    if (earlier != null && earlier != field) {
                        throw new IllegalStateException(
                                "config." + field.path() + " is written by two fields: rows recorded there share one");
                    }
                }
            }
        }
        List<Field> fields = new ArrayList<>(byPath.values());
        fields.sort(Comparator.comparingInt(f -> {
            int earlier = EARLIER_KEYS.indexOf(f.path());
            return earlier < 0 ? EARLIER_KEYS.size() : earlier;
        }));
        return fields;
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> section, String path, Object value) {
        String[] parts = path.split("\\.");
        Map<String, Object> at = section;
        for (int i = 0; i < parts.length - 1; i++) {
            at = (Map<String, Object>) at.computeIfAbsent(parts[i], k -> new LinkedHashMap<String, Object>());
        }
        at.put(parts[parts.length - 1], value);
    }

    /** Writes a {@link RunConfig} as report.json's {@code config} section. */
    static final class Writer extends JsonSerializer<RunConfig> {
        @Override
        public void serialize(RunConfig config, JsonGenerator out, SerializerProvider provider) throws IOException {
            provider.defaultSerializeValue(write(config), out);
        }
    }

    /** Reads report.json's {@code config} section as a {@link RunConfig}. */
    static final class Reader extends JsonDeserializer<RunConfig> {
        @Override
        public RunConfig deserialize(JsonParser in, DeserializationContext context) throws IOException {
            JsonNode node = context.readTree(in);
            try {
                return read(new Section(node, context::readTreeAsValue));
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }
}
