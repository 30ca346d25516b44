package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record a real run writes: valid against the published schema, honest about unknowns, free of secrets. */
@Tag("loopback")
@Tag("process")
class RunRecordTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "sk-llmload-test-7f3a9c-DO-NOT-LEAK";

    @TempDir
    Path dir;

    private static SimServer simulator() {
        return SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 10, "itlMs", 2)));
    }

    @Test
    void aRealReportValidatesAgainstTheSchemaAndLeavesUnknownsNull() throws Exception {
        Path runDir = dir.resolve("run");
        try (SimServer sim = simulator()) {
            int code = Main.execute(
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "6",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4",
                    "--output-dir",
                    runDir.toString(),
                    "--metadata",
                    "model.precision=bf16");
            assertThat(code).isZero();
        }
        String report = Files.readString(runDir.resolve("report.json"));
        var schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(Path.of("..", "docs", "report.schema.json")), InputFormat.JSON);
        assertThat(schema.validate(report, InputFormat.JSON)).isEmpty();

        JsonNode json = JSON.readTree(report);
        assertThat(json.at("/model/precision").asText()).isEqualTo("bf16");
        // Nothing told llmload these: they stay null rather than being guessed.
        for (String pointer : List.of(
                "/model/parameters",
                "/model/quantization",
                "/hardware/gpu_model",
                "/hardware/gpu_count",
                "/hardware/gpu_memory_gib",
                "/service/launch_args")) {
            assertThat(json.at(pointer).isNull()).as(pointer).isTrue();
        }
        assertThat(json.at("/service/framework").asText()).isEqualTo("llmload-sim");
        assertThat(json.at("/run/client/cores").asInt()).isPositive();
    }

    @Test
    void anApiKeyFromAFileNeverReachesAnyFileOrTheConsole() throws Exception {
        Path keyFile = dir.resolve("key.txt");
        Files.writeString(keyFile, SECRET + "\n");
        Path runDir = dir.resolve("with-key-file");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (SimServer sim = simulator()) {
            var commandLine = Main.commandLine();
            commandLine.setOut(new PrintWriter(out, true));
            commandLine.setErr(new PrintWriter(err, true));
            int code = commandLine.execute(
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "4",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4",
                    "--api-key-file",
                    keyFile.toString(),
                    "--export",
                    "vllm",
                    "--output-dir",
                    runDir.toString());
            assertThat(code).isZero();
        }
        assertThat(out.toString() + err).doesNotContain(SECRET).contains("llmload benchmark result");
        assertNoFileContainsTheSecret(runDir);
        // --export vllm names its file as vllm bench serve --save-result does.
        try (var files = Files.list(runDir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .anyMatch(name -> name.matches("openai-chat-infqps-concurrency2-.+-\\d{8}-\\d{6}\\.json"));
        }
    }

    @Test
    void anApiKeyFromTheEnvironmentNeverReachesAnyFileOrTheConsole() throws Exception {
        Path runDir = dir.resolve("with-env-key");
        Path console = dir.resolve("console.log");
        try (SimServer sim = simulator()) {
            ProcessBuilder builder = new ProcessBuilder(
                    ProcessHandle.current().info().command().orElse("java"),
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "4",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4",
                    "--output-dir",
                    runDir.toString());
            builder.environment().put("LLMLOAD_API_KEY", SECRET);
            Process process = builder.redirectErrorStream(true)
                    .redirectOutput(console.toFile())
                    .start();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
        }
        assertThat(Files.readString(console)).doesNotContain(SECRET).contains("llmload benchmark result");
        assertNoFileContainsTheSecret(runDir);
    }

    private static void assertNoFileContainsTheSecret(Path runDir) throws Exception {
        try (Stream<Path> files = Files.walk(runDir)) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            assertThat(all)
                    .extracting(p -> p.getFileName().toString())
                    .contains(
                            "report.json",
                            "requests.jsonl",
                            "inputs.jsonl",
                            "run.json",
                            "report.html",
                            "summary.csv",
                            "timeseries.csv");
            for (Path file : all) {
                assertThat(Files.readString(file)).as(file.toString()).doesNotContain(SECRET);
            }
        }
    }
}
