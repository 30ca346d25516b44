package dev.llmload.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.RequiredTool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code /metrics} after a known set of requests: vLLM's names, sums that add up, promtool's approval. */
@Tag("loopback")
@Tag("process")
class SimMetricsEndpointTest {

    private static final Pattern SAMPLE = Pattern.compile("^(\\S+?)(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE);

    @Test
    void countersAndHistogramsAddUpAfterRequests() throws Exception {
        SimConfig config = SimConfig.load(null, Map.of("ttftMs", 2, "itlMs", 1, "prefillMsPerToken", 0));
        int requests = 6;
        int maxTokens = 5;
        String text;
        try (SimServer server = SimServer.start(config);
                HttpClient http = HttpClient.newHttpClient()) {
            for (int i = 0; i < requests; i++) {
                var r = http.send(
                        HttpRequest.newBuilder(URI.create(server.url() + "/v1/completions"))
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"prompt\":\"one two three\",\"max_tokens\":" + maxTokens
                                                + ",\"ignore_eos\":true,\"stream\":" + (i % 2 == 0) + "}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
            }
            text = http.send(
                            HttpRequest.newBuilder(URI.create(server.url() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        }
        Map<String, Double> samples = new HashMap<>();
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
        }
        String labels = "model_name=\"llmload-sim\",engine=\"0\"";
        assertThat(samples.get("vllm:prompt_tokens_total{" + labels + "}")).isEqualTo(requests * 3.0);
        assertThat(samples.get("vllm:generation_tokens_total{" + labels + "}")).isEqualTo(requests * maxTokens * 1.0);
        assertThat(samples.get("vllm:request_success_total{" + labels + ",finished_reason=\"length\"}"))
                .isEqualTo((double) requests);
        assertThat(samples.get("vllm:request_success_total{" + labels + ",finished_reason=\"stop\"}"))
                .isZero();
        assertThat(samples.get("vllm:time_to_first_token_seconds_count{" + labels + "}"))
                .isEqualTo((double) requests);
        assertThat(samples.get("vllm:time_to_first_token_seconds_bucket{" + labels + ",le=\"+Inf\"}"))
                .isEqualTo((double) requests);
        assertThat(samples.get("vllm:inter_token_latency_seconds_count{" + labels + "}"))
                .isEqualTo(requests * (maxTokens - 1.0));
        assertThat(samples.get("vllm:e2e_request_latency_seconds_count{" + labels + "}"))
                .isEqualTo((double) requests);
        assertThat(samples.get("vllm:request_time_per_output_token_seconds_count{" + labels + "}"))
                .isEqualTo((double) requests);
        assertThat(samples.get("vllm:request_queue_time_seconds_count{" + labels + "}"))
                .isEqualTo((double) requests);
        assertThat(samples.get("vllm:request_prefill_time_seconds_sum{" + labels + "}"))
                .isPositive();
        assertThat(samples.get("vllm:request_decode_time_seconds_count{" + labels + "}"))
                .isEqualTo((double) requests);
        assertThat(samples.get("vllm:num_requests_running{" + labels + "}")).isZero();
        assertThat(samples).containsKey("llmload_sim_step_lag_seconds{" + labels + "}");
        // Each streamed request's 5 token events leave in 1 to 5 flushes, each observed once; the
        // non-streamed ones send their text in the body and observe nothing.
        assertThat(samples.get("llmload_sim_token_write_delay_seconds_count{" + labels + "}"))
                .isBetween(requests / 2.0, requests / 2.0 * maxTokens);
        assertThat(samples.get("llmload_sim_token_write_delay_seconds_sum{" + labels + "}"))
                .isBetween(0.0, 1.0);
        assertThat(samples).containsKey("vllm:prompt_tokens_created{" + labels + "}");
        assertThat(text)
                .contains(
                        "# TYPE vllm:prompt_tokens_total counter\n",
                        "# TYPE vllm:time_to_first_token_seconds histogram\n",
                        "vllm:cache_config_info{" + labels + ",block_size=\"16\"");
        // a TTFT of 2 ms falls into vLLM's 5 ms bucket but not its 1 ms one
        assertThat(samples.get("vllm:time_to_first_token_seconds_bucket{" + labels + ",le=\"0.001\"}"))
                .isZero();

        promtoolAccepts(text);
    }

    /**
     * Runs {@code promtool check metrics} when promtool is installed (Debian package {@code prometheus}).
     * The exposition must parse, and the only lint finding allowed is the one real vLLM also earns:
     * its names contain ':' (legal in Prometheus, discouraged by the linter). promtool exits 3 for
     * lint findings and 1 for a parse error.
     */
    private static void promtoolAccepts(String text) throws Exception {
        Path promtool = Path.of("/usr/bin/promtool");
        RequiredTool.require(
                Files.isExecutable(promtool), "promtool not installed (apt-get install prometheus); check skipped");
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics")
                .redirectErrorStream(true)
                .start();
        try (var in = p.getOutputStream()) {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("promtool check metrics said: %s", output).isIn(0, 3);
        assertThat(output.lines().filter(line -> !line.isBlank()))
                .allSatisfy(line -> assertThat(line).matches("vllm:\\S+ metric names should not contain ':'"));
    }
}
