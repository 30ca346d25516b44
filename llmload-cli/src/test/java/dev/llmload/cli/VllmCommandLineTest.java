package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code vllm bench serve} command line of docs/coming-from.md, as written there, runs against
 * the simulator and sends the workload it describes: chat requests of the given lengths, as many
 * as asked, never more than the gate in flight, and vLLM's result file in the result directory.
 */
@Tag("loopback")
class VllmCommandLineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The words of the documented vLLM command line, after {@code vllm bench serve}. */
    private static List<String> documentedCommandLine() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "coming-from.md"));
        String block = doc.substring(doc.indexOf("<!-- vllm-command-line -->"));
        block = block.substring(block.indexOf("```\n") + 4);
        block = block.substring(0, block.indexOf("```"));
        String line = block.replace("\\\n", " ").strip();
        assertThat(line).startsWith("vllm bench serve ");
        return Arrays.stream(line.substring("vllm bench serve ".length()).split("\\s+"))
                .toList();
    }

    private static String after(List<String> words, String flag) {
        return words.get(words.indexOf(flag) + 1);
    }

    @Test
    void theDocumentedVllmCommandLineRunsTheSameWorkload() throws Exception {
        List<String> vllm = documentedCommandLine();
        Path resultDir = dir.resolve("results");
        List<String> args = new ArrayList<>(List.of("run"));
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 1)))) {
            for (String word : vllm) {
                args.add(
                        switch (word) {
                            case "http://127.0.0.1:8000" -> sim.url();
                            case "MODEL" -> "llmload-sim";
                            case "results/vllm-c8" -> resultDir.toString();
                            default -> word;
                        });
            }
            CapturedRun outcome = CapturedRun.of(args.toArray(String[]::new));
            assertThat(outcome.exitCode()).as(outcome.err()).isZero();
        }
        int prompts = Integer.parseInt(after(vllm, "--num-prompts"));
        int inputTokens = Integer.parseInt(after(vllm, "--random-input-len"));
        int outputTokens = Integer.parseInt(after(vllm, "--random-output-len"));
        int gate = Integer.parseInt(after(vllm, "--max-concurrency"));

        JsonNode config =
                JSON.readTree(resultDir.resolve("report.json").toFile()).path("config");
        assertThat(config.path("api").asText()).isEqualToIgnoringCase("chat");
        assertThat(config.path("ignore_eos").asBoolean()).isTrue();
        assertThat(config.path("load").path("mode").asText()).isEqualTo("closed");
        assertThat(config.path("load").path("concurrency").asInt()).isEqualTo(gate);

        List<JsonNode> requests = new ArrayList<>();
        for (String line : Files.readAllLines(resultDir.resolve("requests.jsonl"))) {
            requests.add(JSON.readTree(line));
        }
        assertThat(requests).hasSize(prompts);
        for (JsonNode request : requests) {
            assertThat(request.path("outcome").asText()).isEqualTo("success");
            // The simulator's own counts: what it was sent and generated.
            assertThat(request.path("input_tokens_source").asText()).isEqualTo("server");
            assertThat(request.path("input_tokens").asInt()).isBetween(inputTokens, inputTokens + 16);
            assertThat(request.path("output_tokens").asInt()).isEqualTo(outputTokens);
        }
        assertThat(maxInFlight(requests)).isEqualTo(gate);

        try (Stream<Path> files = Files.list(resultDir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .anyMatch(name -> name.matches(
                            "openai-chat-infqps-concurrency" + gate + "-llmload-sim-\\d{8}-\\d{6}\\.json"));
        }
    }

    /** The most requests between their send and their end at any one time. */
    private static int maxInFlight(List<JsonNode> requests) {
        TreeMap<Double, Integer> changes = new TreeMap<>();
        for (JsonNode request : requests) {
            // An end and a send at the same instant: the end comes first, as the closed loop does it.
            changes.merge(request.path("sent_ms").asDouble(), 1, Integer::sum);
            double sent = request.path("sent_ms").asDouble();
            changes.merge(sent + request.path("end_ms").asDouble() - 1e-6, -1, Integer::sum);
        }
        int inFlight = 0;
        int max = 0;
        for (int change : changes.values()) {
            inFlight += change;
            max = Math.max(max, inFlight);
        }
        return max;
    }
}
