package dev.llmload.telemetry.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.telemetry.Fixtures;
import dev.llmload.telemetry.prometheus.PrometheusTextParser;
import dev.llmload.telemetry.prometheus.Scrape;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EngineProfileTest {

    /** Each engine's fixture with the engine it is. */
    static Stream<Arguments> engineFixtures() {
        return Stream.of(
                Arguments.of("vllm-current.prom", EngineKind.VLLM),
                Arguments.of("vllm-old.prom", EngineKind.VLLM),
                Arguments.of("openmetrics.prom", EngineKind.VLLM),
                Arguments.of("sglang.prom", EngineKind.SGLANG),
                Arguments.of("tgi.prom", EngineKind.TGI),
                Arguments.of("triton-trtllm.prom", EngineKind.TRITON),
                Arguments.of("trtllm-serve.prom", EngineKind.TRTLLM),
                Arguments.of("llamacpp.prom", EngineKind.LLAMACPP));
    }

    @ParameterizedTest
    @MethodSource("engineFixtures")
    void detectsTheEngineFromTheNamesItExposes(String fixture, EngineKind expected) {
        assertThat(EngineProfile.detect(Fixtures.scrape(fixture)))
                .get()
                .extracting(EngineProfile::kind)
                .isEqualTo(expected);
    }

    /** A run's scrapes keep only {@link EngineProfile#families()}: what is read from them must not change. */
    @ParameterizedTest
    @MethodSource("engineFixtures")
    void readingOnlyTheFamiliesAProfileNamesReadsTheSame(String fixture, EngineKind kind) {
        EngineProfile profile = EngineProfile.of(kind);
        String text = Fixtures.text(fixture);
        Scrape whole = PrometheusTextParser.parse(text);
        Scrape kept = PrometheusTextParser.parse(text, profile.families());

        assertThat(profile.read(kept)).isEqualTo(profile.read(whole));
        assertThat(kept.families().keySet()).isSubsetOf(profile.families());
    }

    @Test
    void aDcgmExporterIsNoEngine() {
        assertThat(EngineProfile.detect(Fixtures.scrape("dcgm.prom"))).isEmpty();
    }

    @Test
    void kindsByCliName() {
        assertThat(EngineKind.byName("vLLM")).contains(EngineKind.VLLM);
        assertThat(EngineKind.byName("trtllm")).contains(EngineKind.TRTLLM);
        assertThat(EngineKind.byName("triton")).contains(EngineKind.TRITON);
        assertThat(EngineKind.byName("llamacpp")).contains(EngineKind.LLAMACPP);
        assertThat(EngineKind.byName("ollama")).isEmpty();
    }

    @Test
    void vllmCurrentSumsCountsAndAveragesKvOverEngines() {
        ServerSignals s = EngineProfile.of(EngineKind.VLLM).read(Fixtures.scrape("vllm-current.prom"));

        assertThat(s.kvCacheUsage()).isCloseTo(0.6, within(1e-12)); // (0.5 + 0.7) / 2
        assertThat(s.requestsRunning()).isEqualTo(22);
        assertThat(s.requestsWaiting()).isEqualTo(4);
        assertThat(s.preemptions()).isEqualTo(3);
        assertThat(s.prefixCacheHits()).isEqualTo(25000);
        assertThat(s.prefixCacheQueries()).isEqualTo(100000);
        assertThat(s.promptTokens()).isEqualTo(100000);
        assertThat(s.generationTokens()).isEqualTo(25000);
        assertThat(s.requestsSucceeded()).isEqualTo(195); // 90 + 10 + 95, abort (0) left out
        assertThat(s.queueTime().count()).isEqualTo(100);
        assertThat(s.timeToFirstToken().count()).isEqualTo(200);
        assertThat(s.interTokenLatency().count()).isEqualTo(12600);
    }

    @Test
    void vllmOldNamesAreAccepted() {
        ServerSignals s = EngineProfile.of(EngineKind.VLLM).read(Fixtures.scrape("vllm-old.prom"));

        assertThat(s.kvCacheUsage()).isEqualTo(0.25);
        assertThat(s.prefixCacheHits()).isEqualTo(1000);
        assertThat(s.prefixCacheQueries()).isEqualTo(4000);
        assertThat(s.interTokenLatency().count()).isEqualTo(200);
        assertThat(s.interTokenLatency().sum()).isEqualTo(6);
        assertThat(s.timeToFirstToken()).isNull();
        assertThat(s.requestsSucceeded()).isNull();
    }

    @Test
    void noPrefixMatching() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE vllm:num_requests_waiting_by_reason gauge
                vllm:num_requests_waiting_by_reason{reason="capacity"} 5
                # TYPE vllm:num_requests_running gauge
                vllm:num_requests_running 1
                """);

        ServerSignals s = EngineProfile.of(EngineKind.VLLM).read(scrape);
        assertThat(s.requestsWaiting()).isNull();
        assertThat(s.requestsRunning()).isEqualTo(1);
    }

    @Test
    void sglang() {
        ServerSignals s = EngineProfile.of(EngineKind.SGLANG).read(Fixtures.scrape("sglang.prom"));

        assertThat(s.kvCacheUsage()).isEqualTo(0.93);
        assertThat(s.requestsRunning()).isEqualTo(8);
        assertThat(s.requestsWaiting()).isEqualTo(5);
        assertThat(s.preemptions()).isEqualTo(6);
        assertThat(s.prefixCacheHits()).isEqualTo(36000);
        assertThat(s.prefixCacheQueries()).isEqualTo(90000);
        assertThat(s.generationTokens()).isEqualTo(30000);
        assertThat(s.requestsSucceeded()).isEqualTo(147); // 150 finished − 3 aborted
        assertThat(s.queueTime().sum()).isEqualTo(60);
        assertThat(s.timeToFirstToken().count()).isEqualTo(150);
    }

    @Test
    void tgiUsesReservedTokensOverBudgetForKv() {
        ServerSignals s = EngineProfile.of(EngineKind.TGI).read(Fixtures.scrape("tgi.prom"));

        assertThat(s.kvCacheUsage()).isEqualTo(0.75); // 12000 / 16000
        assertThat(s.requestsRunning()).isEqualTo(16);
        assertThat(s.requestsWaiting()).isEqualTo(7);
        assertThat(s.promptTokens()).isEqualTo(110000);
        assertThat(s.generationTokens()).isEqualTo(26400);
        assertThat(s.requestsSucceeded()).isEqualTo(220);
        assertThat(s.queueTime().count()).isEqualTo(220);
        assertThat(s.timeToFirstToken()).isNull();
        assertThat(s.preemptions()).isNull();
    }

    @Test
    void tritonReadsTheTrtLlmModelOnly() {
        ServerSignals s = EngineProfile.of(EngineKind.TRITON).read(Fixtures.scrape("triton-trtllm.prom"));

        assertThat(s.kvCacheUsage()).isEqualTo(0.75);
        assertThat(s.requestsRunning()).isEqualTo(24);
        assertThat(s.requestsWaiting()).isEqualTo(3);
        assertThat(s.requestsSucceeded()).isEqualTo(500); // not 1500 with the ensemble and preprocessing
        assertThat(s.queueTime().count()).isEqualTo(502); // 500 succeeded + 2 failed
        assertThat(s.queueTime().sum()).isEqualTo(2.5); // 2 500 000 µs
        assertThat(s.queueTime().quantile(0.5)).isNaN();
    }

    @Test
    void tritonFallsBackToUsedOverMaxBlocks() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE nv_trt_llm_kv_cache_block_metrics gauge
                nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="used",model="m"} 300
                nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max",model="m"} 400
                """);

        assertThat(EngineProfile.of(EngineKind.TRITON).read(scrape).kvCacheUsage())
                .isEqualTo(0.75);
    }

    @Test
    void trtllmServe() {
        ServerSignals s = EngineProfile.of(EngineKind.TRTLLM).read(Fixtures.scrape("trtllm-serve.prom"));

        assertThat(s.kvCacheUsage()).isEqualTo(0.62);
        assertThat(s.requestsRunning()).isEqualTo(30);
        assertThat(s.requestsWaiting()).isEqualTo(2);
        assertThat(s.promptTokens()).isEqualTo(256000);
        assertThat(s.generationTokens()).isEqualTo(64000);
        assertThat(s.requestsSucceeded()).isEqualTo(500);
        assertThat(s.timeToFirstToken().sum()).isEqualTo(60);
        assertThat(s.interTokenLatency().sum()).isEqualTo(3.5);
    }

    @Test
    void llamaCpp() {
        ServerSignals s = EngineProfile.of(EngineKind.LLAMACPP).read(Fixtures.scrape("llamacpp.prom"));

        assertThat(s.kvCacheUsage()).isNull();
        assertThat(s.requestsRunning()).isEqualTo(4);
        assertThat(s.requestsWaiting()).isEqualTo(1);
        assertThat(s.promptTokens()).isEqualTo(12000);
        assertThat(s.generationTokens()).isEqualTo(4800);
    }
}
