package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.config.RunConfig;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line made from {@link dev.llmload.config.OptionTable}: a report.json written before
 * the table existed still replays to the configuration it records, the report's {@code config} and
 * {@code load} sections are written as earlier versions wrote them (fixtures written by
 * {@code llmload run} with the built-in simulator), and the table's checks refuse a bad value
 * before any server is contacted, in one line.
 */
class RunOptionTableTest {

    @TempDir
    Path dir;

    @Test
    void reportsOfAnEarlierVersionReplayToTheConfigurationTheyRecord() throws Exception {
        for (String fixture : new String[] {"closed-report.json", "open-gamma-report.json"}) {
            assertThat(configOf(replayed(fixture))).as(fixture).isEqualTo(text(fixtureConfig(fixture)));
        }
        // That version recorded a rate beside a ramp, which the ramp never used: the replay drops it
        // (a rate beside a shape is now refused) and keeps everything else.
        ObjectNode ramp = fixtureConfig("ramp-with-rate-report.json");
        assertThat(ramp.at("/load/request_rate").asDouble()).isEqualTo(5.0);
        ((ObjectNode) ramp.get("load")).putNull("request_rate");
        assertThat(configOf(replayed("ramp-with-rate-report.json"))).isEqualTo(text(ramp));
    }

    /**
     * The command lines that wrote the layout fixtures (with the built-in simulator, 8 requests),
     * but {@code --output-dir}, which the fixtures replace, and {@code --io-threads 2}, which those
     * runs took from the host's cores.
     */
    private static final Map<String, List<String>> LAYOUT_FIXTURES = Map.of(
            "layout-closed-report.json",
                    List.of(
                            "--concurrency",
                            "4",
                            "--slo",
                            "ttft:500,tpot:50",
                            "--scrape-interval",
                            "500ms",
                            "--seed",
                            "7",
                            "--warmup",
                            "2",
                            "--metadata",
                            "hardware.gpu_model=H100",
                            "--note",
                            "hello"),
            "layout-open-gamma-report.json",
                    List.of(
                            "--request-rate",
                            "20",
                            "--burstiness",
                            "0.5",
                            "--max-concurrency",
                            "3",
                            "--slo",
                            "p99_ttft:1000,error_rate:0.01",
                            "--server-metrics",
                            "off",
                            "--temperature",
                            "0.5",
                            "--stop",
                            "END",
                            "--header",
                            "x-route: a",
                            "--header",
                            "authorization: Bearer x",
                            "--extra-body",
                            "{\"a\":1}",
                            "--gpu-hour-price",
                            "2.49USD"),
            "layout-ramp-sessions-report.json",
                    List.of(
                            "--ramp",
                            "5:20:1s",
                            "--duration",
                            "2s",
                            "--server-kind",
                            "vllm",
                            "--stop-on-saturation",
                            "--sessions",
                            "2",
                            "--think-time",
                            "10",
                            "--max-sessions",
                            "4",
                            "--top-p",
                            "0.9",
                            "--top-k",
                            "5",
                            "--first-token-timeout",
                            "5s",
                            "--idle-timeout",
                            "2s",
                            "--export",
                            "vllm"));

    @Test
    void theLayoutWritesWhatEarlierVersionsWrote() throws Exception {
        for (Map.Entry<String, List<String>> fixture : LAYOUT_FIXTURES.entrySet()) {
            List<String> args = new ArrayList<>(List.of(
                    "--num-requests", "8", "--input-tokens", "32", "--output-tokens", "8", "--io-threads", "2"));
            args.addAll(fixture.getValue());
            RunConfig config = parsed(args.toArray(String[]::new));
            JsonNode recorded = fixture(fixture.getKey());
            assertThat(configOf(config)).as(fixture.getKey()).isEqualTo(text(fixtureConfig(fixture.getKey())));
            assertThat(text(ReportFiles.JSON.valueToTree(RunReport.Load.of(config))))
                    .as(fixture.getKey())
                    .isEqualTo(text(recorded.get("load")));
        }
    }

    @Test
    void theLayoutFixturesReplayToTheConfigurationTheyRecord() throws Exception {
        for (String fixture : LAYOUT_FIXTURES.keySet()) {
            ObjectNode expected = fixtureConfig(fixture);
            if (expected.has("headers")) {
                // A credential recorded redacted is not sent again: the repeat needs it given with --header.
                ((ObjectNode) expected.get("headers")).remove("authorization");
            }
            assertThat(configOf(replayed(fixture))).as(fixture).isEqualTo(text(expected));
        }
    }

    @Test
    void aRecordedLoadThatDoesNotReadIsOneLine() throws Exception {
        for (String[] bad : new String[][] {{"arrival", "sometimes"}, {"mode", "half-open"}}) {
            ObjectNode report = (ObjectNode) fixture("layout-open-gamma-report.json");
            ((ObjectNode) report.get("config").get("load")).put(bad[0], bad[1]);
            Path file = dir.resolve(bad[0] + "-report.json");
            ReportFiles.JSON.writeValue(file.toFile(), report);
            CapturedRun run = CapturedRun.of("run", "--config", file.toString());
            assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.EXIT_USAGE);
            assertThat(run.err().strip().lines().count()).as(run.err()).isEqualTo(1);
            assertThat(run.err())
                    .contains("the recorded configuration does not read")
                    .contains(bad[1])
                    .doesNotContain("Exception");
        }
    }

    @Test
    void badValuesAreRefusedBeforeTheServerIsContacted() throws Exception {
        String url;
        try (ServerSocket closed = new ServerSocket(0)) {
            url = "http://127.0.0.1:" + closed.getLocalPort();
        }
        usageError("'10' has no unit: write 10s", "--url", url, "--duration", "10");
        usageError("unknown --server-kind 'vlm'", "--url", url, "--server-kind", "vlm");
        usageError(
                "--server-metrics: 'node:9400' is not an http:// or https:// URL",
                "--url",
                url,
                "--server-metrics",
                "node:9400");
        usageError("--nvidia-smi must be at least 100ms", "--url", url, "--nvidia-smi", "10ms");
        usageError("--url: 127.0.0.1:8000 has no scheme: add http://", "--url", "127.0.0.1:8000");
        usageError(
                "--request-rate does not combine with --bursts",
                "--url",
                url,
                "--request-rate",
                "5",
                "--bursts",
                "2:20:10s");
        usageError("--slo: unknown limit 'p98_ttft'", "--url", url, "--slo", "p98_ttft:100");
    }

    @Test
    void runTakesPercentileLimitsBesidePerRequestOnes() throws Exception {
        RunConfig config = parsed("--url", "http://127.0.0.1:1", "--slo", "ttft:500,p99_ttft:1000,error_rate:0.01");
        assertThat(config.slo().slo().ttftMs()).isEqualTo(500.0);
        assertThat(config.slo().percentiles().limits())
                .extracting(l -> l.key())
                .containsExactly("p99_ttft", "error_rate");
        // Recorded as written, so a replay judges the same limits.
        assertThat(ReportFiles.JSON.valueToTree(config).get("slo").asText())
                .isEqualTo("ttft:500,p99_ttft:1000,error_rate:0.01");
    }

    /**
     * {@code --scenario agentic} bounds its run by 400 model calls; a count of sessions given with
     * it replaces that bound, so its sessions are not cut, and a request count given too is kept.
     */
    @Test
    void aPresetsRequestCountYieldsToACountOfSessions() {
        assertThat(parsed("--scenario", "agentic").bounds().numRequests()).isEqualTo(400L);
        RunConfig sessions = parsed("--scenario", "agentic", "--num-sessions", "5");
        assertThat(sessions.bounds().numSessions()).isEqualTo(5);
        assertThat(sessions.bounds().numRequests()).isNull();
        assertThat(sessions.sessions().agent()).isNotNull();
        RunConfig both = parsed("--scenario", "agentic", "--num-sessions", "5", "--num-requests", "50");
        assertThat(both.bounds().numRequests()).isEqualTo(50L);
        assertThat(both.bounds().numSessions()).isEqualTo(5);
    }

    private static void usageError(String expected, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "run";
        System.arraycopy(args, 0, all, 1, args.length);
        CapturedRun run = CapturedRun.of(all);
        assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.EXIT_USAGE);
        assertThat(run.err().strip().lines().count()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).contains(expected).doesNotContain("Exception");
    }

    private RunConfig replayed(String fixture) throws Exception {
        Path report = dir.resolve(fixture);
        Files.copy(RunOptionTableTest.class.getResourceAsStream("replay/" + fixture), report);
        return parsed("--config", report.toString());
    }

    /** The configuration {@code llmload run ARGS} would run, without running it. */
    private static RunConfig parsed(String... args) {
        RunCommand command = new RunCommand();
        new picocli.CommandLine(command).parseArgs(args);
        RunCommand effective = command.options.configPending()
                ? command.options.withConfig(command.spec, RunCommand::new, c -> c.options, true)
                : command;
        return effective.config();
    }

    private static JsonNode fixture(String fixture) throws Exception {
        return ReportFiles.JSON.readTree(RunOptionTableTest.class.getResourceAsStream("replay/" + fixture));
    }

    private static ObjectNode fixtureConfig(String fixture) throws Exception {
        ObjectNode config = (ObjectNode) fixture(fixture).get("config");
        config.remove("output_dir");
        return config;
    }

    /** The recorded configuration as report.json writes it, but the run directory, which a repeat chooses anew. */
    private static String configOf(RunConfig config) throws Exception {
        ObjectNode node = ReportFiles.JSON.valueToTree(config);
        node.remove("output_dir");
        return text(node);
    }

    /** Compared as written: numbers that read back as another JSON node type still print alike. */
    private static String text(JsonNode node) throws Exception {
        return ReportFiles.JSON.writeValueAsString(node);
    }
}
