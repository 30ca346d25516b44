package dev.llmload.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.report.ReportFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.json's {@code config} section, made from the table's rows, reads back to the typed
 * configuration it was written from, for a value of every recorded row other than its default;
 * and it is written again the same.
 */
class ReportLayoutTest {

    @TempDir
    Path dir;

    @Test
    void everyRecordedRowRoundTripsThroughReportJson() throws Exception {
        Path dataset = Files.writeString(dir.resolve("prompts.jsonl"), "{\"prompt\":\"hi\"}\n");
        Path trace = Files.writeString(
                dir.resolve("trace.jsonl"), "{\"timestamp\":0,\"input_length\":8,\"output_length\":4}\n");
        List<RunConfig.Builder> runs = List.of(
                // A closed loop with every request, target, limit, telemetry and output option set.
                RunConfig.builder().url("http://127.0.0.1:9").api("completions").model("m").stream(false)
                        .ignoreEos(false)
                        .headers(List.of("x-route: a", "authorization: Bearer secret"))
                        .extraBody("{\"a\":{\"b\":1}}")
                        .temperature(0.5)
                        .topP(0.9)
                        .topK(5)
                        .stop(List.of("END", "a,b"))
                        .concurrency(8)
                        .numRequests(50L)
                        .duration(Duration.ofSeconds(30))
                        .warmup("3")
                        .inputTokens("32")
                        .outputTokens("16")
                        .rangeRatio(0.25)
                        .dataset(dataset)
                        .datasetFormat("jsonl")
                        .tokenizer("o200k_base")
                        .seed(7)
                        .connectTimeout(Duration.ofSeconds(5))
                        .firstTokenTimeout(Duration.ofSeconds(3))
                        .idleTimeout(Duration.ofMillis(2500))
                        .requestTimeout(Duration.ofMinutes(1))
                        .maxEventBytes(2048)
                        .maxResponseBytes(1 << 20)
                        .maxTokensFactor(8)
                        .serverMetrics("off")
                        .serverKind("vllm")
                        .gpuMetrics(List.of("http://127.0.0.1:9400/metrics"))
                        .nvidiaSmi(Duration.ofSeconds(2))
                        .scrapeInterval(Duration.ofMillis(500))
                        .grace(Duration.ofSeconds(10))
                        .stopOnSaturation(true)
                        .slo("ttft:500,p99_ttft:1000")
                        .exports(List.of("vllm"))
                        .gpuHourPrice("2.49USD")
                        .outputDir(dir.resolve("run"))
                        .metadata(Map.of("hardware.gpu_model", "H100"))
                        .notes(List.of("first", "second"))
                        .insecure(true)
                        .ioThreads(3)
                        .segment("1/4")
                        .startAt("2030-01-01T00:00:00Z")
                        .scenario("batch"),
                // Open loops: gamma with a gate, a warm-up by time, shared prefixes and images.
                RunConfig.builder()
                        .requestRate(20.0)
                        .arrival("gamma")
                        .burstiness(0.5)
                        .maxConcurrency(3)
                        .numRequests(40L)
                        .warmup("30s")
                        .sharedPrefix("4:32")
                        .outputTokens("uniform:8:16")
                        .api("chat")
                        .images("2:64x48"),
                RunConfig.builder().requestRate(5.0).arrival("constant").numRequests(10L),
                RunConfig.builder().ramp("1:5:10s").numRequests(10L),
                RunConfig.builder().stages("5:10s,10:10s"),
                RunConfig.builder().bursts("2:20:10s").duration(Duration.ofSeconds(30)),
                RunConfig.builder().concurrencyProfile("ramp:1:4:10s"),
                RunConfig.builder()
                        .trace(trace)
                        .traceSpeed(2.0)
                        .maxConcurrency(4)
                        .traceFormat("mooncake"),
                RunConfig.builder().api("embeddings").batchSize(4),
                // Sessions, closed (sessions in flight) and open (started at a rate).
                RunConfig.builder()
                        .sessions("3")
                        .thinkTime("uniform:100:200")
                        .maxSessions(4)
                        .numSessions(6),
                RunConfig.builder().sessions("2").requestRate(2.0).numRequests(20L),
                // Agent sessions: a shared system prompt and subagents.
                RunConfig.builder()
                        .sessions("4")
                        .maxSessions(2)
                        .systemPromptTokens(256)
                        .subagentProbability(0.25)
                        .subagentFanout("uniform:1:3"));

        Map<RunOption<?>, Object> plain =
                recorded(ReportFiles.JSON.valueToTree(RunConfig.builder().build()));
        Set<RunOption<?>> covered = new HashSet<>();
        for (RunConfig.Builder run : runs) {
            RunConfig config = run.build();
            JsonNode section = ReportFiles.JSON.valueToTree(config);
            RunConfig read = ReportFiles.JSON.treeToValue(section, RunConfig.class);
            assertThat(read)
                    .as(section.toString())
                    .usingRecursiveComparison()
                    .ignoringFields("target.keySource", "target.extras.headers")
                    .isEqualTo(config);
            assertThat(withoutCredentials(ReportFiles.JSON.writeValueAsString(read)))
                    .as("written again the same")
                    .isEqualTo(withoutCredentials(ReportFiles.JSON.writeValueAsString(config)));
            recorded(section).forEach((row, value) -> {
                if (!Objects.equals(value, plain.get(row))) {
                    covered.add(row);
                }
            });
        }
        // A credential is recorded redacted and not read back as the redaction mark; the rest is.
        RunConfig withHeaders = runs.getFirst().build();
        assertThat(ReportFiles.JSON
                        .treeToValue(ReportFiles.JSON.valueToTree(withHeaders), RunConfig.class)
                        .target()
                        .extras()
                        .headers())
                .containsExactly(Map.entry("x-route", "a"));
        List<String> recordedRows = OptionTable.ROWS.stream()
                .filter(row -> row.report() instanceof RunOption.Report.Key<?>)
                .map(RunOption::name)
                .toList();
        assertThat(covered.stream().map(RunOption::name).toList())
                .as("rows whose value other than the default went through report.json")
                .containsExactlyInAnyOrderElementsOf(recordedRows);
    }

    @Test
    void aReportReadAgainKeepsItsStartAndDoesNotLookForItsFiles() throws Exception {
        Path dataset = Files.writeString(dir.resolve("gone.jsonl"), "{\"prompt\":\"hi\"}\n");
        RunConfig config = RunConfig.builder()
                .url("http://127.0.0.1:9")
                .dataset(dataset)
                .startAt("2030-01-01T00:00:00Z")
                .build();
        JsonNode section = ReportFiles.JSON.valueToTree(config);
        Files.delete(dataset);
        RunConfig read = ReportFiles.JSON.treeToValue(section, RunConfig.class);
        assertThat(read.data().dataset()).isEqualTo(dataset);
        assertThat(read.client().startInstant()).isEqualTo(config.client().startInstant());
    }

    /** The text as written, but a credential's header line, which a report read again no longer has. */
    private static String withoutCredentials(String text) {
        return text.replace(",\n    \"authorization\" : \"[redacted]\"", "");
    }

    private static Map<RunOption<?>, Object> recorded(JsonNode section) {
        return ReportLayout.values(new ReportLayout.Section(section, ReportFiles.JSON::treeToValue), false);
    }
}
