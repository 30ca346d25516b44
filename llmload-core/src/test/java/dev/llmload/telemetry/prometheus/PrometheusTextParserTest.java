package dev.llmload.telemetry.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.telemetry.Fixtures;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextParserTest {

    @Test
    void vllmCurrentSumsEnginesAndReadsTotals() {
        Scrape scrape = Fixtures.scrape("vllm-current.prom");

        assertThat(scrape.skippedLines()).isZero();
        assertThat(scrape.sum("vllm:num_requests_running")).hasValue(22);
        // 3 + 1, not the 300 waiting "by reason" next to it
        assertThat(scrape.sum("vllm:num_requests_waiting")).hasValue(4);
        assertThat(scrape.sum("vllm:num_requests_waiting_by_reason")).hasValue(300);
        assertThat(scrape.family("vllm:num_preemptions").orElseThrow().type()).isEqualTo(MetricType.COUNTER);
        assertThat(scrape.sum("vllm:num_preemptions")).hasValue(3);
        assertThat(scrape.sum("vllm:generation_tokens")).hasValue(25000);
        assertThat(scrape.sumWhere("vllm:request_success", "finished_reason", "stop"))
                .hasValue(185);
        assertThat(scrape.family("python_gc_objects_collected")).isPresent();
    }

    @Test
    void createdSeriesAreDroppedNotReadAsMetrics() {
        Scrape scrape = Fixtures.scrape("vllm-current.prom");

        assertThat(scrape.families().keySet()).noneMatch(name -> name.endsWith("_created"));
        assertThat(scrape.family("vllm:prompt_tokens").orElseThrow().samples())
                .extracting(Sample::name)
                .containsOnly("vllm:prompt_tokens_total");
        assertThat(scrape.family("vllm:time_to_first_token_seconds")
                        .orElseThrow()
                        .samples())
                .extracting(Sample::name)
                .doesNotContain("vllm:time_to_first_token_seconds_created");
    }

    @Test
    void histogramMergesEnginesBucketByBucket() {
        Histogram ttft = Fixtures.scrape("vllm-current.prom")
                .histogram("vllm:time_to_first_token_seconds")
                .orElseThrow();

        assertThat(ttft.buckets())
                .containsExactly(
                        new Histogram.Bucket(0.001, 0),
                        new Histogram.Bucket(0.1, 100),
                        new Histogram.Bucket(0.25, 170),
                        new Histogram.Bucket(0.5, 200),
                        new Histogram.Bucket(Double.POSITIVE_INFINITY, 200));
        assertThat(ttft.count()).isEqualTo(200);
        assertThat(ttft.sum()).isEqualTo(26);
        // histogram named ..._total is still a histogram, not a counter
        assertThat(Fixtures.scrape("vllm-current.prom")
                        .histogram("vllm:iteration_tokens_total")
                        .orElseThrow()
                        .count())
                .isEqualTo(50);
    }

    @Test
    void everyFixtureParsesWithoutSkippedLines() {
        for (String name : new String[] {
            "vllm-current.prom",
            "vllm-old.prom",
            "sglang.prom",
            "tgi.prom",
            "triton-trtllm.prom",
            "trtllm-serve.prom",
            "llamacpp.prom",
            "dcgm.prom",
            "openmetrics.prom"
        }) {
            Scrape scrape = Fixtures.scrape(name);
            assertThat(scrape.skippedLines()).as(name).isZero();
            assertThat(scrape.families()).as(name).isNotEmpty();
        }
    }

    @Test
    void fixturesKeepTheirTypesAndValues() {
        assertThat(Fixtures.scrape("vllm-old.prom").sum("vllm:gpu_cache_usage_perc"))
                .hasValue(0.25);
        assertThat(Fixtures.scrape("sglang.prom").sum("sglang:num_retracted_requests"))
                .hasValue(6);
        Scrape tgi = Fixtures.scrape("tgi.prom");
        assertThat(tgi.family("tgi_request_success").orElseThrow().type()).isEqualTo(MetricType.COUNTER);
        assertThat(tgi.sum("tgi_request_success")).hasValue(220);
        assertThat(tgi.sum("tgi_request_failure")).hasValue(10);
        Scrape triton = Fixtures.scrape("triton-trtllm.prom");
        assertThat(triton.sumWhere("nv_trt_llm_kv_cache_block_metrics", "kv_cache_block_type", "fraction"))
                .hasValue(0.75);
        assertThat(triton.sum("nv_inference_queue_duration_us")).hasValue(2_500_000);
        assertThat(Fixtures.scrape("trtllm-serve.prom")
                        .histogram("trtllm_request_queue_time_seconds")
                        .orElseThrow()
                        .sum())
                .isEqualTo(25);
        assertThat(Fixtures.scrape("llamacpp.prom").sum("llamacpp:tokens_predicted"))
                .hasValue(4800);
        Scrape dcgm = Fixtures.scrape("dcgm.prom");
        assertThat(dcgm.family("DCGM_FI_DEV_FB_USED")
                        .orElseThrow()
                        .samples()
                        .getFirst()
                        .labels())
                .containsEntry("gpu", "0")
                .containsEntry("Hostname", "node-a")
                .containsEntry("modelName", "NVIDIA H100 80GB HBM3");
    }

    @Test
    void openMetricsCountersTimestampsExemplarsAndEof() {
        Scrape scrape = Fixtures.scrape("openmetrics.prom");

        assertThat(scrape.sum("vllm:generation_tokens")).hasValue(1000);
        Histogram ttft = scrape.histogram("vllm:time_to_first_token_seconds").orElseThrow();
        assertThat(ttft.buckets().getFirst().cumulativeCount()).isEqualTo(4);
        assertThat(ttft.sum()).isEqualTo(0.75);
        // the line after "# EOF" is not read
        assertThat(scrape.has("vllm:num_requests_waiting")).isFalse();
        assertThat(scrape.family("vllm:num_requests_running").orElseThrow().help())
                .isEqualTo("Running requests.");
    }

    @Test
    void labelEscapesAreUnescaped() {
        Scrape scrape = PrometheusTextParser.parse("""
                m{a="x\\\\y",b="say \\"hi\\"",c="line\\nnext",d="a,b}c"} 1
                """);

        assertThat(scrape.family("m").orElseThrow().samples().getFirst().labels())
                .isEqualTo(Map.of("a", "x\\y", "b", "say \"hi\"", "c", "line\nnext", "d", "a,b}c"));
    }

    @Test
    void specialValuesAndTimestamps() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE g gauge
                g{k="nan"} NaN
                g{k="pos"} +Inf
                g{k="neg"} -Inf 1700000000000
                g{k="exp"} 1.5e+03 1700000000000
                """);

        assertThat(scrape.skippedLines()).isZero();
        assertThat(scrape.family("g").orElseThrow().samples())
                .extracting(Sample::value)
                .containsExactly(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1500.0);
        // NaN is left out of the sum, the infinities are not
        assertThat(scrape.sumWhere("g", "k", "exp")).hasValue(1500);
        assertThat(scrape.sumWhere("g", "k", "nan")).isEmpty();
    }

    @Test
    void badLinesAreSkippedAndCountedNeverThrown() {
        Scrape scrape = PrometheusTextParser.parse(String.join(
                "\n",
                "good 1",
                "unterminated{a=\"x} 1",
                "novalue",
                "toomany 1 2 3",
                "{a=\"b\"} 1",
                "word notanumber",
                "javaish 1d",
                "bad.name 1",
                "# TYPE weird sometype",
                "good 2"));

        assertThat(scrape.skippedLines()).isEqualTo(8);
        assertThat(scrape.skippedExamples())
                .hasSize(PrometheusTextParser.SKIPPED_EXAMPLES)
                .startsWith("unterminated{a=\"x} 1");
        assertThat(scrape.sum("good")).hasValue(3);
    }

    @Test
    void crlfBlankLinesTrailingCommaAndUntypedSeries() {
        Scrape scrape =
                PrometheusTextParser.parse("# HELP u A\\\\B\\nC\r\n\r\nu{a=\"1\",} 2\r\n  \r\nu{a=\"2\"} 3\r\n");

        assertThat(scrape.skippedLines()).isZero();
        MetricFamily u = scrape.family("u").orElseThrow();
        assertThat(u.type()).isEqualTo(MetricType.UNTYPED);
        assertThat(u.help()).isEqualTo("A\\B\nC");
        assertThat(scrape.sum("u")).hasValue(5);
    }

    @Test
    void summariesAreKeptApartAndNotSummed() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE rpc summary
                rpc{quantile="0.5"} 0.2
                rpc{quantile="0.99"} 1.5
                rpc_sum 40
                rpc_count 100
                rpc_created 1700000000
                """);

        assertThat(scrape.families()).containsOnlyKeys("rpc");
        assertThat(scrape.family("rpc").orElseThrow().samples()).hasSize(4);
        assertThat(scrape.sum("rpc")).isEmpty();
        assertThat(scrape.histogram("rpc")).isEmpty();
    }

    @Test
    void gaugeNamedCreatedIsKeptWhenNothingElseOwnsIt() {
        Scrape scrape = PrometheusTextParser.parse("""
                # TYPE jobs_created gauge
                jobs_created 7
                """);

        assertThat(scrape.sum("jobs_created")).hasValue(7);
    }

    @Test
    void aParseToldWhichFamiliesToKeepReadsNoOtherLinePastItsName() {
        String page = """
                # HELP requests Requests served.
                # TYPE requests counter
                requests_total{code="200"} 3
                requests_total{code="500"} 1
                requests_created 1.7e9
                # HELP latency_seconds Not wanted.
                # TYPE latency_seconds histogram
                latency_seconds_bucket{le="0.1"} 2
                latency_seconds_bucket{le="+Inf" 4
                latency_seconds_sum 0.5
                latency_seconds_count 4
                undeclared_wanted{engine="0"} 2.5
                undeclared_other{ this is not a sample
                """;

        Scrape kept = PrometheusTextParser.parse(page, java.util.Set.of("requests", "undeclared_wanted"));

        assertThat(kept.families().keySet()).containsExactlyInAnyOrder("requests", "undeclared_wanted");
        assertThat(kept.sum("requests")).hasValue(4);
        assertThat(kept.family("requests").orElseThrow().help()).isEqualTo("Requests served.");
        assertThat(kept.sum("undeclared_wanted")).hasValue(2.5);
        // The malformed lines belong to families not kept: not read, so not counted as skipped.
        assertThat(kept.skippedLines()).isZero();
        Scrape whole = PrometheusTextParser.parse(page);
        assertThat(whole.skippedLines()).isEqualTo(2);
        assertThat(whole.sum("requests")).isEqualTo(kept.sum("requests"));
    }
}
