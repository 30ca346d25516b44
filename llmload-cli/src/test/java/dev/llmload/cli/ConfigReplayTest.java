package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code llmload run --config results/<run>/report.json} repeats the run: the repeat records the
 * same configuration, for every kind of load; a YAML file fills what the flags leave.
 */
@Tag("loopback")
class ConfigReplayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aRecordedRunOfEveryKindRepeatsWithTheSameConfig() throws Exception {
        Path trace = dir.resolve("trace.jsonl");
        Files.writeString(trace, """
                {"timestamp": 0, "input_length": 16, "output_length": 2}
                {"timestamp": 20, "input_length": 24, "output_length": 3}
                {"timestamp": 45, "input_length": 16, "output_length": 2}
                """);
        Path sessionTrace = dir.resolve("agent.jsonl");
        Files.writeString(sessionTrace, """
                {"session_id": "a", "turn": 1, "input_tokens": 16, "output_tokens": 2}
                {"session_id": "b", "parent_session": "a", "parent_turn": 1, "turn": 1, "input_tokens": 8, "output_tokens": 2}
                {"session_id": "a", "turn": 2, "tool_wait_ms": 5, "input_tokens": 8, "output_tokens": 2}
                """);
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 2, "itlMs", 1)))) {
            Map<String, List<String>> runs = Map.of(
                    "closed",
                            List.of(
                                    "--concurrency",
                                    "2",
                                    "--num-requests",
                                    "6",
                                    "--warmup",
                                    "1",
                                    "--seed",
                                    "3",
                                    "--api",
                                    "completions",
                                    "--no-ignore-eos",
                                    "--slo",
                                    "ttft:500,tpot:50",
                                    "--export",
                                    "vllm",
                                    "--metadata",
                                    "team=perf",
                                    "--note",
                                    "replayed",
                                    "--server-metrics",
                                    "off",
                                    "--first-token-timeout",
                                    "30s",
                                    "--header",
                                    "x-route: pool-a,pool-b",
                                    "--stop",
                                    "end,here",
                                    "--stop",
                                    ","),
                    "open-shape",
                            List.of(
                                    "--stages",
                                    "40:0.15s,80:0.1s",
                                    "--max-concurrency",
                                    "4",
                                    "--shared-prefix",
                                    "2:8",
                                    "--range-ratio",
                                    "0.25",
                                    "--warmup",
                                    "50ms"),
                    "open-gamma",
                            List.of(
                                    "--request-rate",
                                    "60",
                                    "--burstiness",
                                    "0.5",
                                    "--num-requests",
                                    "8",
                                    "--no-stream"),
                    "trace", List.of("--trace", trace.toString(), "--trace-speed", "2"),
                    "session-trace", List.of("--trace", sessionTrace.toString(), "--trace-format", "llmload-sessions"),
                    "agentic",
                            List.of(
                                    "--scenario",
                                    "agentic",
                                    "--sessions",
                                    "2",
                                    "--think-time",
                                    "5",
                                    "--system-prompt-tokens",
                                    "20",
                                    "--max-sessions",
                                    "2",
                                    "--num-requests",
                                    "8"),
                    "sessions",
                            List.of(
                                    "--sessions",
                                    "2",
                                    "--think-time",
                                    "5",
                                    "--max-sessions",
                                    "2",
                                    "--num-requests",
                                    "6"),
                    "agentic-tasks",
                            List.of(
                                    "--scenario",
                                    "agentic",
                                    "--sessions",
                                    "2",
                                    "--think-time",
                                    "5",
                                    "--system-prompt-tokens",
                                    "20",
                                    "--max-sessions",
                                    "2",
                                    "--num-sessions",
                                    "3"));
            for (Map.Entry<String, List<String>> run : runs.entrySet()) {
                Path first = dir.resolve(run.getKey());
                List<String> args = new ArrayList<>(List.of(
                        "run",
                        "--url",
                        sim.url(),
                        "--input-tokens",
                        "16",
                        "--output-tokens",
                        "3",
                        "--output-dir",
                        first.toString()));
                args.addAll(run.getValue());
                CapturedRun original = CapturedRun.of(args.toArray(String[]::new));
                assertThat(original.exitCode())
                        .as("%s: %s", run.getKey(), original.err())
                        .isZero();

                Path again = dir.resolve(run.getKey() + "-again");
                CapturedRun repeat = CapturedRun.of(
                        "run", "--config", first.resolve("report.json").toString(), "--output-dir", again.toString());
                assertThat(repeat.exitCode())
                        .as("%s repeated: %s", run.getKey(), repeat.err())
                        .isZero();

                assertThat(config(again)).as(run.getKey()).isEqualTo(config(first));
                assertThat(report(again).get("load"))
                        .as(run.getKey())
                        .isEqualTo(report(first).get("load"));
            }
        }
        // What was asked is what was recorded.
        assertThat(report(dir.resolve("open-gamma")).at("/config/load/arrival").asText())
                .isEqualTo("gamma");
        assertThat(report(dir.resolve("open-gamma"))
                        .at("/config/load/burstiness")
                        .asDouble())
                .isEqualTo(0.5);
        assertThat(report(dir.resolve("sessions"))
                        .at("/config/data/sessions/max_sessions")
                        .asInt())
                .isEqualTo(2);
        assertThat(report(dir.resolve("trace")).at("/config/load/arrival").asText())
                .isEqualTo("trace");
        assertThat(report(dir.resolve("session-trace"))
                        .at("/config/data/trace_format")
                        .asText())
                .isEqualTo("llmload-sessions");
        assertThat(report(dir.resolve("agentic"))
                        .at("/config/data/sessions/subagent_fanout")
                        .asText())
                .isEqualTo("uniform:1:3");
        assertThat(report(dir.resolve("agentic"))
                        .at("/config/data/sessions/system_prompt_tokens")
                        .asInt())
                .isEqualTo(20);
        // The count of sessions is recorded and repeated (compared whole above), and the preset's
        // request count yielded to it: no request bound, and all 3 tasks ran.
        JsonNode tasks = report(dir.resolve("agentic-tasks"));
        assertThat(tasks.at("/config/num_sessions").asInt()).isEqualTo(3);
        assertThat(tasks.at("/config/num_requests").isNull()).isTrue();
        assertThat(tasks.at("/results/sessions/tasks/tasks").asLong()).isEqualTo(3);
        assertThat(report(dir.resolve("closed")).at("/config/metadata/team").asText())
                .isEqualTo("perf");
        // Commas inside a header value or a stop string survive the repeat (compared whole above).
        assertThat(report(dir.resolve("closed")).at("/config/headers/x-route").asText())
                .isEqualTo("pool-a,pool-b");
        assertThat(report(dir.resolve("closed")).at("/config/stop").size()).isEqualTo(2);
    }

    @Test
    void aYamlFileSetsWhatTheFlagsLeaveAndRefusesAnUnknownKey() throws Exception {
        Path yaml = dir.resolve("scenario.yaml");
        Files.writeString(yaml, """
                concurrency: 3
                num_requests: 4
                inputTokens: 12
                output-tokens: 2
                gpu-metrics: [http://127.0.0.1:1/metrics]
                header: "x-route: pool-a,pool-b"
                stop: [",", "end,here"]
                metadata: {team: perf}
                notes: [from the file]
                """);
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 2, "itlMs", 1)))) {
            Path out = dir.resolve("yaml");
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    sim.url(),
                    "--config",
                    yaml.toString(),
                    "--num-requests",
                    "5",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    out.toString());
            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonNode config = report(out).get("config");
            assertThat(config.at("/load/concurrency").asInt()).isEqualTo(3);
            assertThat(config.get("num_requests").asInt()).as("the flag wins").isEqualTo(5);
            assertThat(config.at("/data/input_tokens").asText()).isEqualTo("12");
            assertThat(config.at("/telemetry/gpu_metrics/0").asText()).isEqualTo("http://127.0.0.1:1/metrics");
            assertThat(config.at("/metadata/team").asText()).isEqualTo("perf");
            assertThat(config.at("/notes/0").asText()).isEqualTo("from the file");
            // A value's commas are its own: one header, two stop strings as listed.
            assertThat(config.at("/headers/x-route").asText()).isEqualTo("pool-a,pool-b");
            assertThat(config.get("stop")).hasSize(2);
            assertThat(config.at("/stop/0").asText()).isEqualTo(",");
            assertThat(config.at("/stop/1").asText()).isEqualTo("end,here");
        }

        Files.writeString(yaml, "concurency: 3\n");
        CapturedRun bad = CapturedRun.of("run", "--config", yaml.toString());
        assertThat(bad.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(bad.err().strip())
                .isEqualTo(
                        "llmload: --config " + yaml + ":1:1: unknown option 'concurency'; did you mean 'concurrency'?");
    }

    private static JsonNode report(Path runDir) throws IOException {
        return JSON.readTree(runDir.resolve("report.json").toFile());
    }

    /** The recorded configuration but its run directory, which a repeat chooses anew. */
    private static JsonNode config(Path runDir) throws IOException {
        ObjectNode config = (ObjectNode) report(runDir).get("config");
        config.remove("output_dir");
        return config;
    }
}
