package dev.llmload.telemetry.prometheus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the Prometheus text exposition format (0.0.4) and its OpenMetrics 1.0 variant into a
 * {@link Scrape}. Lenient by design: a scrape target is someone else's server, so a line that
 * cannot be read is skipped and counted, and parsing never throws.
 *
 * <p>What it accepts: {@code # HELP} / {@code # TYPE} (other comments, {@code # UNIT} included,
 * are ignored), names with {@code :}, label values with the {@code \\}, {@code \"} and
 * {@code \n} escapes, {@code NaN} / {@code +Inf} / {@code -Inf}, an optional timestamp, an
 * OpenMetrics exemplar after {@code #}, blank lines, CRLF line ends, and {@code # EOF}, after
 * which nothing is read.
 *
 * <p>A sample joins the declared family whose name it carries plus a suffix its type allows
 * ({@code _bucket}/{@code _sum}/{@code _count} for histograms, {@code _total} for counters, ...);
 * a sample of no declared family forms an untyped family of its own. {@code _created} series
 * (the creation time prometheus_client writes next to every counter and histogram, either inside
 * the family or as a gauge family of their own) are dropped, so they are never read as values.
 *
 * <p>A parse may be told which families to keep: lines of the others are read no further than
 * their name (nor checked, nor counted as skipped), which is most of a page where a few of its
 * families are wanted, as during a run.
 *
 * <p>Stateless and thread-safe.
 */
public final class PrometheusTextParser {

    /** How many skipped lines a {@link Scrape} keeps as examples. */
    public static final int SKIPPED_EXAMPLES = 5;

    /**
     * What separates a line's fields. Compiled once: {@code String.split} with this expression
     * compiled it again for every line, and a scrape of a few hundred lines is parsed every second
     * of a run on the client's own cores (the telemetry thread's garbage in a 20 s run fell from
     * about 18 to 13 MB).
     */
    private static final Pattern BLANKS = Pattern.compile("[ \t]+");

    private PrometheusTextParser() {}

    public static Scrape parse(String text) {
        return new Run(null).parse(text);
    }

    /** As {@link #parse(String)}, keeping only the families named in {@code kept}. */
    public static Scrape parse(String text, Set<String> kept) {
        return new Run(kept).parse(text);
    }

    /** Parses a sample value or {@code le} bound; Go's spellings of the infinities included. */
    static double parseValue(String text) {
        return switch (text) {
            case "NaN", "nan" -> Double.NaN;
            case "+Inf", "Inf", "+inf", "inf" -> Double.POSITIVE_INFINITY;
            case "-Inf", "-inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                // Java would also accept "1d", "0x1p3" or "Infinity", which no exporter writes.
                for (int i = 0; i < text.length(); i++) {
                    char c = text.charAt(i);
                    if (!(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
                        throw new NumberFormatException(text);
                    }
                }
                yield Double.parseDouble(text);
            }
        };
    }

    /** The state of one parse: families in exposition order, the declaration in force. */
    private static final class Run {
        /** The families to keep; null: all. */
        private final Set<String> kept;

        private final Map<String, FamilyBuilder> families = new LinkedHashMap<>();
        private final Map<String, String> help = new HashMap<>();
        private FamilyBuilder current;
        private int skipped;
        private final List<String> skippedExamples = new ArrayList<>();

        Run(Set<String> kept) {
            this.kept = kept;
        }

        private boolean keeps(String familyName) {
            return kept == null || kept.contains(familyName);
        }

        Scrape parse(String text) {
            for (String rawLine : text.split("\n", -1)) {
                String line = rawLine.endsWith("\r") ? rawLine.substring(0, rawLine.length() - 1) : rawLine;
                if (line.isBlank()) {
                    continue;
                }
                if (line.startsWith("#")) {
                    if (line.equals("# EOF")) {
                        break;
                    }
                    comment(line);
                } else if (!sample(line)) {
                    skip(line);
                }
            }
            return build();
        }

        private void comment(String line) {
            String[] parts = BLANKS.split(line, 4);
            if (parts.length < 3 || !parts[0].equals("#")) {
                return;
            }
            String name = parts[2];
            if (parts[1].equals("HELP")) {
                // Before its TYPE line a counter's HELP may name it with or without _total.
                if (!keeps(name) && !keeps(withoutTotal(name))) {
                    return;
                }
                String text = parts.length == 4 ? unescapeHelp(parts[3]) : "";
                help.put(name, text);
                // OpenMetrics may put HELP after TYPE
                FamilyBuilder declared = families.get(name);
                if (declared != null) {
                    declared.help = text;
                }
            } else if (parts[1].equals("TYPE")) {
                MetricType type = parts.length == 4 ? MetricType.fromTypeLine(parts[3].trim()) : null;
                if (type == null || !isName(name)) {
                    skip(line);
                    return;
                }
                String familyName = type == MetricType.COUNTER ? withoutTotal(name) : name;
                String helpText = help.getOrDefault(name, help.getOrDefault(familyName, ""));
                current = families.computeIfAbsent(familyName, n -> new FamilyBuilder(n, type, helpText, keeps(n)));
            }
        }

        private boolean sample(String line) {
            int nameEnd = 0;
            while (nameEnd < line.length() && isNameChar(line.charAt(nameEnd), nameEnd == 0)) {
                nameEnd++;
            }
            if (nameEnd == 0) {
                return false;
            }
            String name = line.substring(0, nameEnd);
            FamilyBuilder family = current != null && current.owns(name) ? current : declaredOwner(name);
            if (family == null ? !keeps(name) : !family.kept) {
                return true;
            }
            SampleLine parsed = SampleLine.read(line, nameEnd);
            if (parsed == null) {
                return false;
            }
            if (family == null) {
                family = families.computeIfAbsent(
                        name, n -> new FamilyBuilder(n, MetricType.UNTYPED, help.getOrDefault(n, ""), true));
            }
            if (!name.equals(family.name + "_created")) {
                family.samples.add(new Sample(name, parsed.labels(), parsed.value()));
            }
            return true;
        }

        private FamilyBuilder declaredOwner(String sampleName) {
            FamilyBuilder exact = families.get(sampleName);
            if (exact != null) {
                return exact;
            }
            int underscore = sampleName.lastIndexOf('_');
            if (underscore <= 0) {
                return null;
            }
            FamilyBuilder base = families.get(sampleName.substring(0, underscore));
            return base != null && base.owns(sampleName) ? base : null;
        }

        private void skip(String line) {
            skipped++;
            if (skippedExamples.size() < SKIPPED_EXAMPLES) {
                skippedExamples.add(line.length() > 200 ? line.substring(0, 200) + "…" : line);
            }
        }

        private Scrape build() {
            Map<String, MetricFamily> built = new LinkedHashMap<>();
            for (FamilyBuilder family : families.values()) {
                if (!family.kept || family.name.endsWith("_created") && isCreatedOf(family.name)) {
                    continue;
                }
                built.put(family.name, new MetricFamily(family.name, family.type, family.help, family.samples));
            }
            return new Scrape(built, skipped, skippedExamples);
        }

        /** Whether {@code name} is prometheus_client's separate {@code <metric>_created} gauge. */
        private boolean isCreatedOf(String name) {
            FamilyBuilder base = families.get(name.substring(0, name.length() - "_created".length()));
            return base != null && base.type != MetricType.GAUGE && base.type != MetricType.UNTYPED;
        }
    }

    private static final class FamilyBuilder {
        final String name;
        final MetricType type;
        String help;
        /** Whether the parse keeps it; a family declared but not kept only claims its samples. */
        final boolean kept;

        final List<Sample> samples = new ArrayList<>();

        FamilyBuilder(String name, MetricType type, String help, boolean kept) {
            this.name = name;
            this.type = type;
            this.help = help;
            this.kept = kept;
        }

        boolean owns(String sampleName) {
            if (sampleName.equals(name)) {
                return true;
            }
            if (!sampleName.startsWith(name) || sampleName.length() == name.length()) {
                return false;
            }
            String suffix = sampleName.substring(name.length());
            return switch (type) {
                case COUNTER -> suffix.equals("_total") || suffix.equals("_created");
                case HISTOGRAM ->
                    suffix.equals("_bucket")
                            || suffix.equals("_sum")
                            || suffix.equals("_count")
                            || suffix.equals("_created")
                            || suffix.equals("_gsum")
                            || suffix.equals("_gcount");
                case SUMMARY -> suffix.equals("_sum") || suffix.equals("_count") || suffix.equals("_created");
                case GAUGE -> suffix.equals("_info");
                case UNTYPED -> false;
            };
        }
    }

    /** The rest of a sample line after its name; {@code read} answers {@code null} for a malformed one. */
    private record SampleLine(Map<String, String> labels, double value) {

        /** Reads {@code line} from {@code i}, the end of its name. */
        static SampleLine read(String line, int i) {
            int n = line.length();
            Map<String, String> labels = Map.of();
            if (i < n && line.charAt(i) == '{') {
                labels = new LinkedHashMap<>();
                i = readLabels(line, i + 1, labels);
                if (i < 0) {
                    return null;
                }
            }
            String[] rest = BLANKS.split(line.substring(i).trim());
            if (rest.length == 0 || rest[0].isEmpty() || (i < n && !Character.isWhitespace(line.charAt(i)))) {
                return null;
            }
            double value;
            try {
                value = parseValue(rest[0]);
                // A timestamp (ms in Prometheus text, s in OpenMetrics) may follow, then an exemplar.
                if (rest.length > 1 && !rest[1].startsWith("#")) {
                    parseValue(rest[1]);
                    if (rest.length > 2 && !rest[2].startsWith("#")) {
                        return null;
                    }
                }
            } catch (NumberFormatException notANumber) {
                return null;
            }
            return new SampleLine(labels, value);
        }

        /** Reads {@code a="x",b="y"}} from {@code i}; the index after '}' or -1 when malformed. */
        private static int readLabels(String line, int i, Map<String, String> labels) {
            int n = line.length();
            while (true) {
                while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
                    i++;
                }
                if (i < n && line.charAt(i) == '}') {
                    return i + 1;
                }
                int nameStart = i;
                while (i < n && isNameChar(line.charAt(i), i == nameStart) && line.charAt(i) != ':') {
                    i++;
                }
                if (i == nameStart) {
                    return -1;
                }
                String labelName = line.substring(nameStart, i);
                while (i < n && line.charAt(i) == ' ') {
                    i++;
                }
                if (i >= n || line.charAt(i) != '=') {
                    return -1;
                }
                i++;
                while (i < n && line.charAt(i) == ' ') {
                    i++;
                }
                if (i >= n || line.charAt(i) != '"') {
                    return -1;
                }
                StringBuilder value = new StringBuilder();
                i++;
                while (i < n && line.charAt(i) != '"') {
                    char c = line.charAt(i);
                    if (c == '\\' && i + 1 < n) {
                        char next = line.charAt(++i);
                        switch (next) {
                            case 'n' -> value.append('\n');
                            case '\\' -> value.append('\\');
                            case '"' -> value.append('"');
                            default -> value.append('\\').append(next);
                        }
                    } else {
                        value.append(c);
                    }
                    i++;
                }
                if (i >= n) {
                    return -1;
                }
                labels.put(labelName, value.toString());
                i++;
                while (i < n && line.charAt(i) == ' ') {
                    i++;
                }
                if (i < n && line.charAt(i) == ',') {
                    i++;
                } else if (i < n && line.charAt(i) == '}') {
                    return i + 1;
                } else {
                    return -1;
                }
            }
        }
    }

    /** A counter's family name: {@code name} less its {@code _total} suffix, where it has one. */
    private static String withoutTotal(String name) {
        return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
    }

    private static boolean isName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isNameChar(name.charAt(i), i == 0)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isNameChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9';
    }

    private static String unescapeHelp(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                char next = text.charAt(++i);
                switch (next) {
                    case 'n' -> out.append('\n');
                    case '\\' -> out.append('\\');
                    default -> out.append('\\').append(next);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
