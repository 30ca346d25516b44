package dev.llmload.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One run option: a row of {@link OptionTable}, the one place an option is spelled. The command
 * line makes its flag from the row (names, label, help, default), {@link RunConfig.Builder} keeps
 * its value under the row and reads the default from it, a config file's keys come from it, and
 * {@link #report} writes it into report.json's {@code config} section and reads it back from there
 * ({@link ReportLayout}), for a report read again and for a replayed run alike.
 *
 * @param name        the long name without dashes, as YAML files, presets and the CLI spell it
 * @param aliases     other tools' spellings of the same option, without dashes ({@code num-prompts})
 * @param label       the value's name in the help ({@code N}, {@code TIME}); null for a flag
 * @param value       how the value is typed and read
 * @param defaultText the default as the user would type it, read once by {@link #defaultValue()};
 *                    null when unset means absent (the help then says what absent means)
 * @param help        the help text; {@code ${DEFAULT-VALUE}} stands for {@code defaultText}
 * @param report      where report.json's {@code config} section records the value and how it is read
 *                    back, or why it is not recorded
 * @param use         who reads the value: the run configuration, or only the command line
 * @param choosesLoad whether it chooses the load model (a scenario's load keys yield to any of these)
 * @param point       whether {@code sweep} spells it its own way (as a list, percentiles, a sweep directory)
 * @param <T>         the value's type
 */
public record RunOption<T>(
        String name,
        List<String> aliases,
        String label,
        Value<T> value,
        String defaultText,
        String help,
        Report<T> report,
        Use use,
        boolean choosesLoad,
        boolean point) {

    public RunOption {
        Objects.requireNonNull(name, "name");
        aliases = List.copyOf(aliases);
        Objects.requireNonNull(value, name);
        Objects.requireNonNull(report, name);
        Objects.requireNonNull(use, name);
        if (help == null || help.isBlank()) {
            throw new IllegalArgumentException("--" + name + " has no help text");
        }
        if ((label == null) != (value.kind() == Kind.FLAG)) {
            throw new IllegalArgumentException("--" + name + ": a flag has no label, a value has one");
        }
    }

    /** The default, read from {@link #defaultText}: false for a flag, empty for a repeatable one, else null without one. */
    @SuppressWarnings("unchecked")
    public T defaultValue() {
        return switch (value.kind()) {
            case FLAG -> (T) Boolean.valueOf(defaultText != null && Boolean.parseBoolean(defaultText));
            case LIST -> (T) List.of();
            case MAP -> (T) java.util.Map.of();
            case SINGLE, OPTIONAL -> defaultText == null ? null : value.parse().apply(defaultText);
        };
    }

    /** {@code --name} and then {@code --alias} for each alias. */
    public List<String> flags() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(name), aliases.stream())
                .map(n -> "--" + n)
                .toList();
    }

    /** How a value is given on the command line. */
    public enum Kind {
        /** {@code --no-stream}: no value, present or not. */
        FLAG,
        /** {@code --seed 3}: one value. */
        SINGLE,
        /** {@code --nvidia-smi[=INTERVAL]}: a value that may be left out, {@link Value#fallback} then. */
        OPTIONAL,
        /** {@code --stop A --stop B}: repeatable, a list of strings in the order given. */
        LIST,
        /** {@code --metadata K=V}: repeatable, a map of strings. */
        MAP
    }

    /**
     * A value's type and how its text is read.
     *
     * @param kind     how it is given
     * @param type     the Java type of one value ({@code String} for the items of a list or map)
     * @param parse    reads one value's text; throws IllegalArgumentException with a one-line reason
     * @param fallback the value of an {@link Kind#OPTIONAL} option given without one, as typed; else null
     */
    public record Value<T>(Kind kind, Class<?> type, Function<String, T> parse, String fallback) {

        public static final Value<Boolean> FLAG = new Value<>(Kind.FLAG, boolean.class, Boolean::valueOf, null);
        public static final Value<String> TEXT = new Value<>(Kind.SINGLE, String.class, s -> s, null);
        public static final Value<Integer> INT =
                new Value<>(Kind.SINGLE, Integer.class, s -> number(s, "an int", Integer::valueOf), null);
        public static final Value<Long> LONG =
                new Value<>(Kind.SINGLE, Long.class, s -> number(s, "a long", Long::valueOf), null);
        public static final Value<Double> DOUBLE =
                new Value<>(Kind.SINGLE, Double.class, s -> number(s, "a double", Double::valueOf), null);
        /** A request rate; {@code inf}, as vLLM writes it, is an infinite rate. */
        public static final Value<Double> RATE = new Value<>(Kind.SINGLE, Double.class, RunOption::rate, null);

        public static final Value<Path> PATH = new Value<>(Kind.SINGLE, Path.class, Path::of, null);
        /** A time with its unit ({@code 500ms}, {@code 30s}, {@code 5m}); a bare number is refused. */
        public static final Value<Duration> TIME = new Value<>(Kind.SINGLE, Duration.class, RunOption::time, null);

        public static final Value<List<String>> TEXTS = new Value<>(Kind.LIST, String.class, List::of, null);
        public static final Value<java.util.Map<String, String>> PAIRS = new Value<>(
                Kind.MAP,
                String.class,
                s -> {
                    throw new UnsupportedOperationException("a map is read pair by pair");
                },
                null);

        /** A time that may be given without a value, then {@code fallback}. */
        public static Value<Duration> optionalTime(String fallback) {
            return new Value<>(Kind.OPTIONAL, Duration.class, RunOption::time, fallback);
        }
    }

    /**
     * Where report.json's {@code config} section records an option, and how its value is read back.
     *
     * @param <T> the option's value type
     */
    public sealed interface Report<T> {

        /**
         * Recorded under {@code path}.
         *
         * @param path     the option's place in the {@code config} section, dot-separated
         *                 ({@code data.input_tokens}); in one of {@code fields}, or inside one
         *                 ({@code load.concurrency} in the {@code load} object)
         * @param fields   the keys written for it, from the typed configuration: usually one at
         *                 {@code path}; more where earlier versions recorded it in two keys
         *                 ({@code warmup} and {@code warmup_time}); one shared with other rows where
         *                 they are recorded in one value ({@code load})
         * @param read     the option's value in a recorded section, as {@link RunConfig.Builder#set}
         *                 takes it; null where the recorded configuration did not have it
         * @param repeated whether a replay of the report takes the value (false for what a repeat
         *                 chooses anew: its run directory, its start)
         */
        record Key<T>(
                String path, List<ReportLayout.Field> fields, Function<ReportLayout.Section, T> read, boolean repeated)
                implements Report<T> {

            public Key {
                Objects.requireNonNull(path, "path");
                fields = List.copyOf(fields);
                Objects.requireNonNull(read, path);
                if (fields.stream().noneMatch(f -> path.equals(f.path()) || path.startsWith(f.path() + "."))) {
                    throw new IllegalArgumentException("config." + path + " is in none of its row's fields");
                }
            }

            /** The same, but a replay does not take the recorded value. */
            public Key<T> notRepeated() {
                return new Key<>(path, fields, read, false);
            }
        }

        /** Not recorded, for the reason given (a way of running, a secret, a file of another command). */
        record NotRecorded<T>(String reason) implements Report<T> {
            public NotRecorded {
                if (reason == null || reason.isBlank()) {
                    throw new IllegalArgumentException("a row not recorded says why");
                }
            }
        }
    }

    /** Who reads an option's value. */
    public enum Use {
        /** {@link RunConfig.Builder#build} reads it. */
        CONFIG,
        /** Only the command line reads it (a file to merge, the simulator's settings, a way of running). */
        COMMAND
    }

    /** A time as users write it; a bare number says which unit it lacks. */
    static Duration time(String text) {
        if (text.trim().matches("\\d+(\\.\\d+)?")) {
            throw new IllegalArgumentException("'" + text.trim() + "' has no unit: write " + text.trim() + "s (or "
                    + text.trim() + "ms, " + text.trim() + "m)");
        }
        return Durations.parse(text);
    }

    private static Double rate(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (text.equals("inf") || text.equals("infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            return Double.valueOf(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected requests per second or inf, got '" + value + "'");
        }
    }

    private static <N> N number(String text, String what, Function<String, N> parse) {
        try {
            return parse.apply(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not " + what);
        }
    }
}
