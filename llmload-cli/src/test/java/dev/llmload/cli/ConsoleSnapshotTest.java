package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-of-run summary of five kinds of run (plain, with SLOs, with the server's metrics scraped,
 * multi-turn sessions, stages of load), each a few dozen requests against the simulator over loopback. Each run's
 * summary is compared by structure with {@code src/test/resources/console/<kind>.txt}, and a few of
 * its numbers with the same run's report.json and timeseries.csv.
 *
 * <p>Masking rule (see {@link #structure}): from the {@code llmload benchmark result} ruler to the
 * closing one, rulers and titles are kept as they are; a label/value line keeps its label (up to its
 * first colon) and its value becomes {@code <v>}; the client's verdict, free text, becomes
 * {@code <text>}; a table row (it starts with a digit) becomes {@code <row>}. Sections whose presence or shape depends on timing are
 * left out whole, ruler included: {@code Notes} (which notes fire depends on the machine's load) and
 * {@code Steady State} (whether a window is found in a short run). Per-class error lines (indented
 * under {@code Errors}) are left out too: a healthy loopback run has none, and a busy machine might.
 */
@Tag("loopback")
// The client's scrapes run in Linux's idle scheduling class (they give way to the load), so
// whether they see the server during the run depends on cores left over: a neighbour's load can
// starve them for the whole run.
@Tag("timing")
class ConsoleSnapshotTest {

    private static final int LABEL_WIDTH = 40;
    private static final Pattern RULER = Pattern.compile("^[=-]{2,}.*[=-]{2,}$|^=+$");
    private static final List<String> TIMING_SECTIONS = List.of("Notes", "Steady State");

    private static SimServer sim;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSimulator() throws Exception {
        sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 2, "prefillMsPerToken", 0, "jitter", 0)));
    }

    @AfterAll
    static void stopSimulator() {
        sim.close();
    }

    @Test
    void plainRun() throws Exception {
        Run run = run(
                "plain",
                "--concurrency",
                "2",
                "--num-requests",
                "24",
                "--output-tokens",
                "4",
                "--server-metrics",
                "off");
        assertSnapshot("plain", run.console());
        assertClientFigures(run);
        assertThat(run.console()).doesNotContain("Goodput", "Server (scraped)", "Sessions / turns:");
    }

    @Test
    void sloRun() throws Exception {
        Run run = run(
                "slo",
                "--concurrency",
                "2",
                "--num-requests",
                "24",
                "--output-tokens",
                "4",
                "--server-metrics",
                "off",
                "--slo",
                "e2e:10000");
        assertSnapshot("slo", run.console());
        assertClientFigures(run);
        JsonNode goodput = run.report().at("/results/goodput");
        assertThat(valueOf(run.console(), "Request goodput (req/s):"))
                .isCloseTo(goodput.get("request_goodput").asDouble(), within(0.005 + 1e-9));
    }

    @Test
    void scrapedTelemetryRun() throws Exception {
        // The batching engine (the fixed-latency one has no KV cache), twice as fast as its profile.
        Run run;
        try (SimServer batching = SimServer.start(SimConfig.load(null, Map.of("speedup", 2)))) {
            run = runAt(
                    batching.url(),
                    "telemetry",
                    "--concurrency",
                    "4",
                    "--num-requests",
                    "32",
                    "--output-tokens",
                    "40",
                    "--server-metrics",
                    "auto",
                    "--scrape-interval",
                    "100ms");
        }
        assertSnapshot("telemetry", run.console());
        assertClientFigures(run);
        JsonNode kv = run.report().at("/telemetry/kv_cache_usage");
        assertThat(kv.isObject()).as("telemetry in report.json").isTrue();
        // The simulator held requests in its KV cache during the run: the figures compared are not all zero.
        assertThat(kv.get("max").asDouble()).isPositive();
        String[] kvPrinted =
                run.value("KV cache usage, mean / max:").replace("%", "").split(" / ");
        assertThat(Double.parseDouble(kvPrinted[0])).isCloseTo(kv.get("mean").asDouble() * 100, within(0.005 + 1e-9));
        assertThat(Double.parseDouble(kvPrinted[1])).isCloseTo(kv.get("max").asDouble() * 100, within(0.005 + 1e-9));
        JsonNode waiting = run.report().at("/telemetry/requests_waiting");
        String[] waitingPrinted = run.value("Requests waiting, mean / max:").split(" / ");
        assertThat(Double.parseDouble(waitingPrinted[1]))
                .isCloseTo(waiting.get("max").asDouble(), within(0.005 + 1e-9));
    }

    @Test
    void sessionRun() throws Exception {
        Run run = run(
                "sessions",
                "--sessions",
                "3",
                "--think-time",
                "5",
                "--max-sessions",
                "2",
                "--num-requests",
                "12",
                "--output-tokens",
                "4",
                "--server-metrics",
                "off");
        assertSnapshot("sessions", run.console());
        assertClientFigures(run);
        assertThat(run.value("Sessions / turns:")).isEqualTo("turns 3, think time 5 ms, at most 2 sessions in flight");
        // Metrics off: the workload's intended reuse is there, the server's hit rate is not.
        assertThat(run.value("Prefix reuse intended / cache hit rate:")).endsWith(" / n/a (not scraped)");
        // What ran, against requests.jsonl read here: distinct sessions, and the most turns of one.
        Map<Long, Integer> turns = new java.util.HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(run.dir().resolve("requests.jsonl"))) {
            JsonNode request = json.readTree(line);
            if (!request.path("warmup").asBoolean(false) && request.hasNonNull("session_id")) {
                turns.merge(request.get("session_id").asLong(), 1, Integer::sum);
            }
        }
        int total = turns.values().stream().mapToInt(Integer::intValue).sum();
        assertThat(total).isEqualTo(12);
        assertThat(run.value("Sessions run (all turns succeeded):"))
                .isEqualTo(turns.size() + " (" + turns.size() + ")");
        assertThat(run.value("Turns run (per session mean / max):"))
                .isEqualTo(String.format(
                        java.util.Locale.ROOT,
                        "%d (%.2f / %d)",
                        total,
                        (double) total / turns.size(),
                        java.util.Collections.max(turns.values())));
    }

    @Test
    void stagedRun() throws Exception {
        Run run = run("stages", "--stages", "20:1s,40:1s", "--output-tokens", "4", "--server-metrics", "off");
        assertSnapshot("stages", run.console());
        assertThat(run.value("Load:")).isEqualTo("open loop, stages 20:1s,40:1s");
        // Each stage's row against saturation.stages in report.json: its span, offer and requests sent.
        JsonNode stages = run.report().at("/saturation/stages");
        List<String> rows = run.console()
                .lines()
                .dropWhile(l -> !l.startsWith("Stage (s)"))
                .skip(1)
                .takeWhile(l -> !l.startsWith("-") && !l.startsWith("="))
                .toList();
        assertThat(rows).hasSize(2);
        assertThat(stages.size()).isEqualTo(2);
        long sent = 0;
        for (int i = 0; i < 2; i++) {
            String[] cells = rows.get(i).trim().split("\\s+");
            JsonNode stage = stages.get(i);
            assertThat(stage.get("offered").asText()).isEqualTo("request_rate");
            assertThat(cells[0]).isEqualTo(i == 0 ? "0-1" : "1-2");
            assertThat(cells[1]).isEqualTo(i == 0 ? "20" : "40");
            assertThat(Long.parseLong(cells[2])).isEqualTo(stage.get("arrivals").asLong());
            assertThat(Long.parseLong(cells[3]))
                    .isEqualTo(stage.get("succeeded").asLong());
            sent += stage.get("arrivals").asLong();
        }
        // However the arrivals fell, every measured request belongs to one stage.
        assertThat(sent)
                .isEqualTo(run.report().at("/results/requests/attempted").asLong());
    }

    /**
     * Mean in flight and peak output throughput against timeseries.csv and report.json, read here
     * without the console's code: Σ in_flight_mean over duration_s, and the largest output_tokens_per_s.
     */
    private static void assertClientFigures(Run run) throws IOException {
        List<String> rows = Files.readAllLines(run.dir().resolve("timeseries.csv"));
        List<String> header = List.of(rows.getFirst().split(","));
        int inFlight = header.indexOf("in_flight_mean");
        int tokens = header.indexOf("output_tokens_per_s");
        double inFlightSeconds = 0;
        double peak = 0;
        for (String row : rows.subList(1, rows.size())) {
            String[] cells = row.split(",");
            inFlightSeconds += Double.parseDouble(cells[inFlight]);
            peak = Math.max(peak, Double.parseDouble(cells[tokens]));
        }
        double durationS = run.report().at("/results/duration_s").asDouble();
        assertThat(peak).as("a run that produced tokens").isPositive();
        assertThat(Double.parseDouble(run.value("Peak output throughput (tok/s):")))
                .isCloseTo(peak, within(0.005 + 1e-9));
        // The CSV's cells are rounded, so the sum of many may differ from the exact one in the last digit.
        assertThat(Double.parseDouble(run.value("Mean in flight (requests):")))
                .isCloseTo(inFlightSeconds / durationS, within(0.02));
        assertThat(inFlightSeconds / durationS).as("requests were in flight").isPositive();
    }

    private void assertSnapshot(String kind, String console) throws IOException {
        String actual = structure(console);
        try (InputStream expected = getClass().getResourceAsStream("/console/" + kind + ".txt")) {
            assertThat(expected)
                    .as("src/test/resources/console/%s.txt; this run's structure:%n%s", kind, actual)
                    .isNotNull();
            assertThat(actual).isEqualTo(new String(expected.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The summary with its numbers masked and its timing-dependent sections left out (class doc). */
    static String structure(String console) {
        List<String> lines = console.lines().toList();
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(" llmload benchmark result ")) {
                from = i;
                break;
            }
        }
        assertThat(from).as("the summary in%n%s", console).isNotNegative();
        StringBuilder out = new StringBuilder();
        boolean skipping = false;
        boolean freeText = false;
        for (String line : lines.subList(from, lines.size())) {
            if (RULER.matcher(line).matches()) {
                skipping = TIMING_SECTIONS.stream().anyMatch(line::contains);
                if (!skipping) {
                    out.append(line).append('\n');
                }
                if (line.chars().allMatch(c -> c == '=')) {
                    break;
                }
                freeText = line.contains(" Client (llmload itself) ");
            } else if (!skipping && !line.startsWith("  ")) {
                if (freeText) {
                    out.append("<text>\n");
                } else if (!line.isEmpty() && Character.isDigit(line.charAt(0))) {
                    out.append("<row>\n"); // a row of a table (the load stages)
                } else if (line.contains(":")) {
                    out.append(line, 0, line.indexOf(':') + 1).append(" <v>\n");
                } else {
                    out.append(line).append('\n');
                }
            }
        }
        return out.toString();
    }

    private Run run(String kind, String... options) throws IOException {
        return runAt(sim.url(), kind, options);
    }

    private Run runAt(String url, String kind, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--url",
                url,
                "--input-tokens",
                "16",
                "--output-dir",
                dir.resolve(kind).toString()));
        args.addAll(List.of(options));
        CapturedRun captured = CapturedRun.of(args.toArray(String[]::new));
        assertThat(captured.exitCode()).as(captured.err()).isZero();
        Path runDir = Path.of(captured.out()
                .lines()
                .filter(l -> l.startsWith("Run directory: "))
                .findFirst()
                .orElseThrow()
                .substring("Run directory: ".length())
                .strip());
        return new Run(
                captured.out(), runDir, new ObjectMapper().readTree(Files.readString(runDir.resolve("report.json"))));
    }

    private static double valueOf(String console, String label) {
        return Double.parseDouble(Run.valueIn(console, label));
    }

    private record Run(String console, Path dir, JsonNode report) {

        String value(String label) {
            return valueIn(console, label);
        }

        /** The value printed after a 40-wide label. */
        static String valueIn(String console, String label) {
            return console.lines()
                    .filter(l -> l.startsWith(label))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no line " + label + " in\n" + console))
                    .substring(LABEL_WIDTH)
                    .strip();
        }
    }
}
