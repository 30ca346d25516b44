package dev.llmload.cli;

import dev.llmload.config.OptionTable;
import dev.llmload.config.RunConfig;
import dev.llmload.config.RunOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options that describe a run, shared by {@code llmload run} and {@code llmload sweep}: the
 * flags of {@link OptionTable}'s rows, made here for picocli ({@link #addTo}), and the values
 * picocli gives them. The four point options ({@code --concurrency}, {@code --request-rate},
 * {@code --slo}, {@code --output-dir}) are {@code run}'s; a sweep spells them its own way.
 */
public final class RunOptions {

    /**
     * Options of {@code llmload run} itself (how it runs and judges, not what it runs) that a config
     * file may set too; a sweep has its own, so they are points.
     */
    static final List<String> RUN_COMMAND_KEYS = List.of(
            "repeat", "quiet", "json", "max-error-rate", "fail-if", "fail-if-unjudged", "baseline", "overwrite");

    /** The value picocli gave each row (its default included); a row absent here was not given. */
    private final Map<RunOption<?>, Object> values = new HashMap<>();

    /** Metadata and notes a config file added, and the arguments the user typed; set once --config is merged. */
    private Map<String, String> configMetadata = Map.of();

    private List<String> configNotes = List.of();
    /** The typed values a replayed report.json gives the rows the command line did not; set once --config is merged. */
    private Map<RunOption<?>, Object> recorded = Map.of();

    private boolean configApplied;
    private List<String> typedArgs;

    /** A row's value as given, else as a replayed report.json recorded it, else defaulted; null, false or empty when absent. */
    @SuppressWarnings("unchecked")
    <T> T value(RunOption<T> row) {
        if (recorded.containsKey(row)) {
            return (T) recorded.get(row);
        }
        return values.containsKey(row) ? (T) values.get(row) : row.defaultValue();
    }

    /** {@code --sim-config}: the built-in simulator's settings. */
    Path simConfig() {
        return value(OptionTable.SIM_CONFIG);
    }

    /**
     * Adds the table's flags to a command, after its point options (when {@code points}) and its
     * own, before the vLLM spellings and the help, in the table's order; picocli then fills
     * {@code into}. {@code run} and {@code sweep} call it as their model transformer.
     */
    static CommandSpec addTo(CommandSpec spec, RunOptions into, boolean points) {
        CommandSpec vllm = spec.mixins().get("vllm");
        List<OptionSpec> peers = vllm == null ? List.of() : vllm.options();
        List<OptionSpec> own = new ArrayList<>();
        List<OptionSpec> help = new ArrayList<>();
        for (OptionSpec option : new ArrayList<>(spec.options())) {
            if (option.usageHelp() || option.versionHelp()) {
                help.add(option);
            } else if (!peers.contains(option)) {
                own.add(option);
            }
            spec.remove(option);
        }
        List<RunOption<?>> rows =
                OptionTable.ROWS.stream().filter(row -> points || !row.point()).toList();
        rows.stream().filter(RunOption::point).forEach(row -> spec.addOption(flag(row, into)));
        own.forEach(spec::addOption);
        rows.stream().filter(row -> !row.point()).forEach(row -> spec.addOption(flag(row, into)));
        peers.forEach(spec::addOption);
        help.forEach(spec::addOption);
        return spec;
    }

    /** One row as a picocli option bound to {@code into}. */
    private static OptionSpec flag(RunOption<?> row, RunOptions into) {
        OptionSpec.Builder flag = OptionSpec.builder(row.flags().toArray(String[]::new))
                .description(row.help())
                .getter(new CommandLine.Model.IGetter() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T> T get() {
                        return (T) (row.value().kind() == RunOption.Kind.FLAG ? into.value(row) : into.values.get(row));
                    }
                })
                .setter(new CommandLine.Model.ISetter() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T> T set(T value) {
                        return (T) (value == null ? into.values.remove(row) : into.values.put(row, value));
                    }
                });
        if (row.label() != null) {
            flag.paramLabel(row.label());
        }
        if (row.defaultText() != null) {
            flag.defaultValue(row.defaultText());
        }
        CommandLine.ITypeConverter<Object> convert = text -> {
            try {
                return row.value().parse().apply(text);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        };
        switch (row.value().kind()) {
            case FLAG -> flag.arity("0").type(boolean.class);
            case SINGLE -> flag.type(row.value().type()).converters(convert);
            case OPTIONAL ->
                flag.arity("0..1")
                        .fallbackValue(row.value().fallback())
                        .type(row.value().type())
                        .converters(convert);
            case LIST -> flag.type(List.class).auxiliaryTypes(String.class);
            case MAP -> flag.type(Map.class).auxiliaryTypes(String.class, String.class);
        }
        return flag.build();
    }

    /**
     * An option's own name: the first of its names; the others are the spellings of other tools
     * ({@code --num-prompts} for {@code --num-requests}), never config keys.
     */
    static String canonicalName(OptionSpec option) {
        return option.names()[0];
    }

    /** The config key of a long option name in any spelling (normalised), or null when it is none. */
    static String key(String name) {
        String normalised = ConfigFile.normalise(name);
        for (String key : keys()) {
            if (ConfigFile.normalise(key).equals(normalised)) {
                return key;
            }
        }
        return null;
    }

    /** Every key a config file may set: the table's names, then run's own. */
    static List<String> keys() {
        List<String> keys =
                new ArrayList<>(OptionTable.ROWS.stream().map(RunOption::name).toList());
        keys.addAll(RUN_COMMAND_KEYS);
        return keys;
    }

    /**
     * These options as a configuration to finish: the caller adds what it spells its own way and
     * builds; a bad value or combination is a {@link dev.llmload.config.ConfigException}, which
     * the command line reports as a usage error.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    RunConfig.Builder builder() {
        RunConfig.Builder builder = RunConfig.builder();
        for (RunOption<?> row : OptionTable.ROWS) {
            Object value = recorded.containsKey(row) ? recorded.get(row) : values.get(row);
            if (row.use() == RunOption.Use.CONFIG && value != null) {
                builder.set((RunOption) row, value);
            }
        }
        Map<String, String> allMetadata = new LinkedHashMap<>(configMetadata);
        allMetadata.putAll(value(OptionTable.METADATA));
        List<String> allNotes = new ArrayList<>(configNotes);
        allNotes.addAll(value(OptionTable.NOTE));
        return builder.metadata(allMetadata).notes(allNotes);
    }

    /** Whether {@code --config} or {@code --scenario} still has to be merged in (see {@link #withConfig}). */
    boolean configPending() {
        return !configApplied && (value(OptionTable.CONFIG_FILE) != null || value(OptionTable.SCENARIO) != null);
    }

    /** The arguments the user typed after the command's name, for the report's command line. */
    List<String> typedArguments(CommandLine.Model.CommandSpec command) {
        return typedArgs != null ? typedArgs : argumentsOf(command);
    }

    /** The arguments after a subcommand's name (picocli's original arguments include it). */
    static List<String> argumentsOf(CommandLine.Model.CommandSpec command) {
        List<String> all = command.commandLine().getParseResult().originalArgs();
        int at = all.indexOf(command.name());
        return at < 0 ? all : all.subList(at + 1, all.size());
    }

    /**
     * A fresh command whose unset run options come from the config file, then the scenario. A
     * scenario file's and a preset's values are put before the user's own arguments and picocli
     * parses them all again, so they are converted and checked exactly as flags are; a replayed
     * report.json's are typed already ({@link ConfigFile#recorded}) and go to the builder as they
     * are, for each row the command line did not give.
     *
     * @param command the command as parsed, with these options mixed in
     * @param fresh   makes an unparsed instance of the command
     * @param options finds the fresh command's run options
     * @param points  whether the point options (the rows marked point) are the run's own (false for a sweep)
     */
    <T> T withConfig(
            CommandLine.Model.CommandSpec command, Supplier<T> fresh, Function<T, RunOptions> options, boolean points) {
        Path config = value(OptionTable.CONFIG_FILE);
        String scenario = value(OptionTable.SCENARIO);
        ConfigFile file = config == null ? null : ConfigFile.load(config);
        String scenarioName = scenario != null ? scenario : file == null ? null : file.option("scenario");
        Scenarios preset = scenarioName == null ? null : Scenarios.byName(scenarioName);
        Set<String> given = new HashSet<>();
        for (CommandLine.Model.OptionSpec option :
                command.commandLine().getParseResult().matchedOptions()) {
            given.add(ConfigFile.normalise(canonicalName(option)));
            String implied = VllmOptions.NATIVE.get(canonicalName(option));
            if (implied != null) {
                given.add(ConfigFile.normalise(implied));
            }
        }
        Map<String, String> fromPreset = new LinkedHashMap<>();
        if (preset != null) {
            preset.defaults().forEach((k, v) -> fromPreset.put(ConfigFile.normalise(k), v));
            List<String> loadKeys = OptionTable.ROWS.stream()
                    .filter(RunOption::choosesLoad)
                    .map(row -> ConfigFile.normalise(row.name()))
                    .toList();
            boolean loadChosen = loadKeys.stream().anyMatch(k -> given.contains(k) || (file != null && file.sets(k)));
            if (loadChosen) {
                loadKeys.forEach(fromPreset::remove);
            }
            // A count of sessions is the run's bound: the preset's request count would cut its sessions short.
            String sessionCount = ConfigFile.normalise(OptionTable.NUM_SESSIONS.name());
            if (given.contains(sessionCount) || (file != null && file.sets(sessionCount))) {
                fromPreset.remove(ConfigFile.normalise(OptionTable.NUM_REQUESTS.name()));
            }
        }
        List<String> merged = new ArrayList<>();
        if (scenario == null && scenarioName != null) {
            merged.add("--scenario=" + scenarioName);
        }
        for (String key : keys()) {
            String name = ConfigFile.normalise(key);
            RunOption<?> row = OptionTable.byName(key);
            boolean point = row == null || row.point();
            if (given.contains(name) || (point && !points) || name.equals("config") || name.equals("scenario")) {
                continue;
            }
            if (file != null && file.sets(name) && !file.options().containsKey(name)) {
                // Recorded in a report.json: the builder takes the typed value (below).
                continue;
            }
            List<String> values = file != null && file.options().containsKey(name)
                    ? file.options().get(name)
                    : fromPreset.containsKey(name) ? List.of(fromPreset.get(name)) : null;
            CommandLine.Model.OptionSpec option = command.findOption("--" + key);
            if (values == null || option == null) {
                continue;
            }
            if (option.arity().max() == 0) {
                if (Boolean.parseBoolean(values.getFirst())) {
                    merged.add(canonicalName(option));
                }
            } else if (option.isMultiValue() && !option.typeInfo().isMap()) {
                // One flag per value: a header's or a stop string's commas are its own.
                values.forEach(item -> merged.add(canonicalName(option) + "=" + item));
            } else {
                // A list for a single-valued option is the comma list the flag takes (e.g. slo).
                merged.add(canonicalName(option) + "=" + String.join(",", values));
            }
        }
        List<String> typed = argumentsOf(command);
        merged.addAll(typed);
        T effective = fresh.get();
        CommandLine parser = new CommandLine(effective);
        parser.setOut(command.commandLine().getOut());
        parser.setErr(command.commandLine().getErr());
        try {
            parser.parseArgs(merged.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new UsageException(
                    (config == null ? "--scenario " + scenarioName : "--config " + config) + ": " + e.getMessage());
        }
        RunOptions merge = options.apply(effective);
        merge.configApplied = true;
        merge.configMetadata = file == null ? Map.of() : file.metadata();
        merge.configNotes = file == null ? List.of() : file.notes();
        Map<RunOption<?>, Object> replayed = new LinkedHashMap<>();
        if (file != null) {
            file.recorded().forEach((row, value) -> {
                if (!given.contains(ConfigFile.normalise(row.name())) && (points || !row.point())) {
                    replayed.put(row, value);
                }
            });
        }
        merge.recorded = replayed;
        merge.typedArgs = typed;
        return effective;
    }
}
