package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Load;
import dev.llmload.metrics.Slo;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.format.VllmExport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VllmExportTest {

    private static final double EXACT = 1e-9;

    /*
     * a: sent 0, tokens at 100, 300, 600 ms: TTFT 0.1 s, gaps 0.2 and 0.3 s, E2E 600 ms, 3 tokens, TPOT 250 ms
     * b: sent 200, tokens at 400, 500 ms:   TTFT 0.2 s, gap 0.1 s, E2E 300 ms, 2 tokens, TPOT 100 ms
     * c: HTTP 500 at 1000 ms (ends 1005)
     * w: warm-up, left out
     * Duration 0 to 1005 ms.
     */
    private static List<RequestRecord> records() {
        return List.of(
                Records.ok(0, 0, 0, 100, 300, 600),
                Records.ok(1, 200, 200, 400, 500),
                Records.failed(2, 1000, FailureClass.HTTP_5XX, 500, "Internal Server Error"),
                Records.streamed(3, true, 0, 0, new double[] {10}, new int[] {1}, Outcome.SUCCESS, 200, 7));
    }

    @Test
    void writesVllmKeysAndUnits() {
        JsonNode json = VllmExport.toJson(Reports.of(records(), Load.closed(8), Slo.parse("ttft:150")), records());

        assertThat(json.get("date").asText()).isEqualTo("20250101-120000");
        assertThat(json.get("backend").asText()).isEqualTo("openai-chat");
        assertThat(json.get("model_id").asText()).isEqualTo("llama-3-8b");
        assertThat(json.get("tokenizer_id").asText()).isEqualTo("llama-3-8b");
        assertThat(json.get("gpu").asText()).isEqualTo("H100");
        assertThat(json.get("num_prompts").asLong()).isEqualTo(3);
        assertThat(json.get("request_rate").asText()).isEqualTo("inf");
        assertThat(json.get("max_concurrency").asInt()).isEqualTo(8);
        assertThat(json.get("burstiness").asDouble()).isEqualTo(1.0);
        assertThat(json.get("duration").asDouble()).isCloseTo(1.005, within(EXACT));
        assertThat(json.get("completed").asLong()).isEqualTo(2);
        assertThat(json.get("failed").asLong()).isEqualTo(1);
        assertThat(json.get("total_input_tokens").asLong()).isEqualTo(200);
        assertThat(json.get("total_output_tokens").asLong()).isEqualTo(5);
        assertThat(json.get("request_throughput").asDouble()).isCloseTo(2 / 1.005, within(EXACT));
        // only a (TTFT 100 ms) meets ttft ≤ 150
        assertThat(json.get("request_goodput").asDouble()).isCloseTo(1 / 1.005, within(EXACT));
        assertThat(json.get("output_throughput").asDouble()).isCloseTo(5 / 1.005, within(EXACT));
        assertThat(json.get("total_token_throughput").asDouble()).isCloseTo(205 / 1.005, within(EXACT));

        assertThat(json.get("mean_ttft_ms").asDouble()).isCloseTo(150, within(EXACT));
        assertThat(json.get("median_ttft_ms").asDouble()).isCloseTo(150, within(EXACT));
        assertThat(json.get("std_ttft_ms").asDouble()).isCloseTo(50, within(EXACT));
        assertThat(json.get("p99_ttft_ms").asDouble()).isCloseTo(199, within(EXACT));
        assertThat(json.get("p50_ttft_ms").asDouble()).isCloseTo(150, within(EXACT));
        assertThat(json.get("p90_ttft_ms").asDouble()).isCloseTo(190, within(EXACT));
        assertThat(json.get("mean_tpot_ms").asDouble()).isCloseTo(175, within(EXACT));
        // ITL gaps 200, 300, 100: mean 200, median 200
        assertThat(json.get("mean_itl_ms").asDouble()).isCloseTo(200, within(EXACT));
        assertThat(json.get("median_e2el_ms").asDouble()).isCloseTo(450, within(EXACT));

        assertThat(numbers(json.get("input_lens"))).containsExactly(100.0, 100.0, 100.0);
        assertThat(numbers(json.get("output_lens"))).containsExactly(3.0, 2.0, 0.0);
        assertThat(json.get("ttfts").get(0).asDouble()).isCloseTo(0.1, within(EXACT));
        assertThat(json.get("ttfts").get(1).asDouble()).isCloseTo(0.2, within(EXACT));
        assertThat(json.get("ttfts").get(2).isNull()).isTrue();
        assertThat(numbers(json.get("itls").get(0))).hasSize(2);
        assertThat(json.get("itls").get(0).get(1).asDouble()).isCloseTo(0.3, within(EXACT));
        assertThat(json.get("itls").get(2)).isEmpty();
        assertThat(json.get("latencies").get(1).asDouble()).isCloseTo(0.3, within(EXACT));
        assertThat(json.get("start_times").get(1).asDouble()).isCloseTo(0.2, within(EXACT));
        assertThat(json.get("queue_times").get(1).asDouble()).isCloseTo(0.0, within(EXACT));
        // All five tokens of a and b fall in the first second; a [0, 600) and b [200, 500) overlap.
        assertThat(json.get("max_output_tokens_per_s").asDouble()).isEqualTo(5.0);
        assertThat(json.get("max_concurrent_requests").asInt()).isEqualTo(2);
        // A closed loop has vLLM's gate, so the gate's queue is summarised too.
        assertThat(json.get("mean_client_queue_time_ms").asDouble()).isCloseTo(0, within(EXACT));
        assertThat(json.has("mean_e2el_including_client_queue_ms")).isFalse();
        assertThat(json.get("generated_texts")).hasSize(3);
        assertThat(json.get("errors").get(0).asText()).isEmpty();
        assertThat(json.get("errors").get(2).asText()).isEqualTo("Internal Server Error");
    }

    @Test
    void anOpenLoopKeepsItsRateAndEmptyStatisticsAreNull() {
        List<RequestRecord> failedOnly = List.of(Records.failed(0, 0, FailureClass.CONNECT, 0, "refused"));
        JsonNode json = VllmExport.toJson(
                Reports.of(failedOnly, Load.open(4, Load.Arrival.GAMMA, 1.0, null), null), failedOnly);
        assertThat(json.get("request_rate").asDouble()).isEqualTo(4.0);
        assertThat(json.get("burstiness").asDouble()).isEqualTo(1.0);
        assertThat(json.get("max_concurrency").isNull()).isTrue();
        assertThat(json.get("request_goodput").isNull()).isTrue();
        assertThat(json.get("mean_ttft_ms").isNull()).isTrue();
        assertThat(json.get("p99_e2el_ms").isNull()).isTrue();
        assertThat(json.get("max_output_tokens_per_s").asDouble()).isZero();
        assertThat(json.get("max_concurrent_requests").asInt()).isZero();
        assertThat(json.has("mean_client_queue_time_ms")).isFalse();
    }

    /**
     * The fixture is what vllm/benchmarks/serve.py writes for {@code vllm bench serve --backend
     * openai-chat --request-rate inf --max-concurrency 8 --goodput ttft:150 --metadata gpu=H100
     * --save-result --save-detailed --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles
     * 50,90,99}, written from its source: the keys in the order it writes them, each with a value
     * of the type it writes. The export of the same run has the same keys in the same order and
     * types (a number may be null where llmload has no samples).
     */
    @Test
    void hasTheKeysOrderAndTypesOfVllmsOwnFile() throws Exception {
        JsonNode vllm;
        try (var in = VllmExportTest.class.getResourceAsStream("/vllm/serve-save-detailed.json")) {
            vllm = new ObjectMapper().readTree(in);
        }
        JsonNode json = VllmExport.toJson(Reports.of(records(), Load.closed(8), Slo.parse("ttft:150")), records());

        assertThat(names(json.fieldNames())).isEqualTo(names(vllm.fieldNames()));
        vllm.fields().forEachRemaining(field -> {
            JsonNode ours = json.get(field.getKey());
            if (!ours.isNull() && !field.getValue().isNull()) {
                assertThat(ours.getNodeType())
                        .as(field.getKey())
                        .isEqualTo(field.getValue().getNodeType());
            }
        });
        // An open loop behind a gate also writes the queue-inclusive latency, as vLLM does.
        JsonNode gated =
                VllmExport.toJson(Reports.of(records(), Load.open(4, Load.Arrival.POISSON, null, 8), null), records());
        assertThat(gated.get("mean_e2el_including_client_queue_ms").isNumber()).isTrue();
        assertThat(gated.get("p90_e2el_including_client_queue_ms").isNumber()).isTrue();
    }

    @Test
    void namesTheFileAsVllmDoes() {
        assertThat(VllmExport.fileName(Reports.of(records(), Load.closed(8), null)))
                .isEqualTo("openai-chat-infqps-concurrency8-llama-3-8b-20250101-120000.json");
        assertThat(VllmExport.fileName(Reports.of(records(), Load.open(10, Load.Arrival.POISSON, null, null), null)))
                .isEqualTo("openai-chat-10.0qps-llama-3-8b-20250101-120000.json");
    }

    private static List<String> names(java.util.Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    private static List<Double> numbers(JsonNode array) {
        List<Double> values = new ArrayList<>();
        array.forEach(n -> values.add(n.asDouble()));
        return values;
    }
}
