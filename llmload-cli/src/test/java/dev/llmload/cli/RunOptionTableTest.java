package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.config.RunConfig;
import dev.llmload.report.ReportFiles;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line made from {@link dev.llmload.config.OptionTable}: a report.json written before
 * the table existed still replays to the configuration it records, and the table's checks refuse a
 * bad value before any server is contacted, in one line.
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

    @Test
    void badValuesAreRefusedBeforeTheServerIsContacted() throws Exception {
        String url;
        try (ServerSocket closed = new ServerSocket(0)) {
            url = "http://127.0.0.1:" + closed.getLocalPort();
        }
        usageError("'10' has no unit: write 10s", "--url", url, "--duration", "10");
        usageError("unknown --server-kind 'vlm'", "--url", url, "--server-kind", "vlm");
        usageError("--server-metrics: 'node:9400' is not an http:// or https:// URL", "--url", url,
                "--server-metrics", "node:9400");
        usageError("--nvidia-smi must be at least 100ms", "--url", url, "--nvidia-smi", "10ms");
        usageError("--url: 127.0.0.1:8000 has no scheme: add http://", "--url", "127.0.0.1:8000");
        usageError("--request-rate does not combine with --bursts", "--url", url, "--request-rate", "5",
                "--bursts", "2:20:10s");
        usageError("--slo: unknown limit 'p98_ttft'", "--url", url, "--slo", "p98_ttft:100");
    }

    @Test
    void runTakesPercentileLimitsBesidePerRequestOnes() throws Exception {
        RunConfig config = parsed("--url", "http://127.0.0.1:1", "--slo", "ttft:500,p99_ttft:1000,error_rate:0.01");
        assertThat(config.slo().slo().ttftMs()).isEqualTo(500.0);
        assertThat(config.slo().percentiles().limits()).extracting(l -> l.key())
                .containsExactly("p99_ttft", "error_rate");
        // Recorded as written, so a replay judges the same limits.
        assertThat(ReportFiles.JSON.valueToTree(config).get("slo").asText())
                .isEqualTo("ttft:500,p99_ttft:1000,error_rate:0.01");
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
                ? command.options.withConfig(command.spec, RunCommand::new, c -> c.options, true) : command;
        return effective.config();
    }

    private static ObjectNode fixtureConfig(String fixture) throws Exception {
        ObjectNode config = (ObjectNode) ReportFiles.JSON.readTree(
                RunOptionTableTest.class.getResourceAsStream("replay/" + fixture)).get("config");
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
