package dev.llmload.telemetry.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.telemetry.ScrapeGap;
import dev.llmload.telemetry.ServerReading;
import dev.llmload.telemetry.SimulatorSignals;
import dev.llmload.telemetry.TelemetryRecording;
import dev.llmload.telemetry.analysis.TelemetrySummary.SecondRow;
import dev.llmload.telemetry.engine.EngineKind;
import dev.llmload.telemetry.engine.ServerSignals;
import dev.llmload.telemetry.gpu.GpuReading;
import dev.llmload.telemetry.gpu.GpuSample;
import dev.llmload.telemetry.gpu.Hardware;
import dev.llmload.telemetry.prometheus.Histogram;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowAnalysisTest {

    static final long T0 = 1_000_000_000_000L;
    static final long START = at(10);
    static final long END = at(16);

    static long at(double seconds) {
        return T0 + Math.round(seconds * 1e9);
    }

    static Histogram ttft(double le01, double le05, double inf, double sum) {
        return new Histogram(
                List.of(
                        new Histogram.Bucket(0.1, le01),
                        new Histogram.Bucket(0.5, le05),
                        new Histogram.Bucket(Double.POSITIVE_INFINITY, inf)),
                sum,
                inf);
    }

    static ServerReading reading(
            double t,
            double kv,
            double waiting,
            double gen,
            double preemptions,
            Double hits,
            Double queries,
            Histogram ttft) {
        return new ServerReading(
                at(t),
                at(t),
                new ServerSignals(kv, 4.0, waiting, preemptions, hits, queries, null, gen, null, null, ttft, null),
                null);
    }

    /** A reading of llmload's simulator: nothing but its own delays matters here. */
    static ServerReading simulatorReading(double t, double stepLagSeconds, Histogram writeDelay) {
        return new ServerReading(at(t), at(t), ServerSignals.NONE, new SimulatorSignals(stepLagSeconds, writeDelay));
    }

    static Histogram writeDelay(double le1ms, double le10ms, double inf) {
        return new Histogram(
                List.of(
                        new Histogram.Bucket(0.001, le1ms),
                        new Histogram.Bucket(0.01, le10ms),
                        new Histogram.Bucket(Double.POSITIVE_INFINITY, inf)),
                0,
                inf);
    }

    /*
     * Window [10 s, 16 s] of llmload's simulator (t: step lag, token write delay buckets ≤1 ms, ≤10 ms, +Inf):
     *   9.5: 0.1 ms, 100 100 100   <- baseline
     *  12.0: 15 ms
     *  14.0: 2 ms
     *  16.5: 0.5 ms, 150 190 200  <- end reading; its lag arrives after the end
     */
    static TelemetryRecording simulatorRecording() {
        return new TelemetryRecording(
                EngineKind.VLLM,
                List.of(
                        simulatorReading(9.5, 0.0001, writeDelay(100, 100, 100)),
                        simulatorReading(12.0, 0.015, null),
                        simulatorReading(14.0, 0.002, null),
                        simulatorReading(16.5, 0.0005, writeDelay(150, 190, 200))),
                List.of(),
                List.of(),
                List.of());
    }

    static GpuReading gpu(double t, String uuid, double util, double usedMib) {
        return new GpuReading(
                at(t),
                new GpuSample("dcgm", uuid.equals("g0") ? 0 : 1, "T", uuid, null, util, usedMib, 2048.0, 100.0, null));
    }

    /*
     * Window [10 s, 16 s]. Server readings (t: kv, waiting, generation tokens, preemptions):
     *   9.5: 0.50, 0, 1000, 2   <- baseline (last at or before start)
     *  11.0: 0.95, 0, 1600, 2
     *  13.0: 0.80, 1, 2500, 3
     *  14.5: 0.92, 5,  100, 0   <- server restarted
     *  16.2: 0.91, 6,  700, 1   <- end reading (first at or after end)
     */
    static TelemetryRecording recording() {
        return new TelemetryRecording(
                EngineKind.VLLM,
                List.of(
                        reading(9.5, 0.50, 0, 1000, 2, 100.0, 1000.0, ttft(10, 20, 20, 4)),
                        reading(11.0, 0.95, 0, 1600, 2, null, null, null),
                        reading(13.0, 0.80, 1, 2500, 3, null, null, null),
                        reading(14.5, 0.92, 5, 100, 0, null, null, null),
                        reading(16.2, 0.91, 6, 700, 1, 400.0, 2000.0, ttft(30, 100, 120, 44))),
                List.of(
                        gpu(9.0, "g0", 0, 0),
                        gpu(10.2, "g0", 80, 1024),
                        gpu(10.2, "g1", 40, 2048),
                        gpu(10.7, "g0", 60, 1536),
                        gpu(10.7, "g1", 20, 2048),
                        gpu(12.5, "g0", 100, 1024)),
                List.of(
                        new ScrapeGap(at(12), "http://x/metrics", "HTTP 503"),
                        new ScrapeGap(at(20), "http://x/metrics", "HTTP 503")),
                List.of());
    }

    final TelemetrySummary summary = WindowAnalysis.summarise(recording(), START, END);

    @Test
    void countersAreDeltasFromBaselineToEndWithRestarts() {
        // 600 + 900 + 100 (restart: counted from 0) + 600 over 16.2 − 9.5 = 6.7 s
        assertThat(summary.generationTokens().delta()).isEqualTo(2200);
        assertThat(summary.generationTokens().ratePerS()).isCloseTo(2200 / 6.7, within(1e-9));
        // 0 + 1 + 0 (restart to 0) + 1
        assertThat(summary.preemptions().delta()).isEqualTo(2);
        assertThat(summary.promptTokens()).isNull();
        // (400 − 100) / (2000 − 1000)
        assertThat(summary.prefixCacheHitRate()).isCloseTo(0.3, within(1e-12));
        assertThat(summary.serverScrapes()).isEqualTo(5);
        assertThat(summary.scrapeGaps()).isEqualTo(1);
        assertThat(summary.windowS()).isEqualTo(6.0);
    }

    /**
     * A scrape asked for before the end and answered after it (late on a busy host) holds counters
     * from before the end: the end reading is the next one, asked for after the end; and one asked
     * for before the start but answered after it is no baseline.
     */
    @Test
    void theEndReadingIsAskedForAfterTheEndAndTheBaselineAnsweredBeforeTheStart() {
        TelemetryRecording recording = new TelemetryRecording(
                EngineKind.VLLM,
                List.of(
                        reading(9.0, 0.5, 0, 1000, 0, null, null, null),
                        late(reading(10.3, 0.5, 0, 1000, 0, null, null, null), 9.9),
                        reading(13.0, 0.5, 0, 1500, 0, null, null, null),
                        late(reading(16.4, 0.5, 0, 1900, 0, null, null, null), 15.9),
                        late(reading(16.6, 0.5, 0, 2000, 0, null, null, null), 16.1)),
                List.of(),
                List.of(),
                List.of());
        TelemetrySummary window = WindowAnalysis.summarise(recording, START, END);
        assertThat(window.generationTokens().delta()).isEqualTo(1000);
        // from the baseline's answer at 9.0 s to the end reading's at 16.6 s
        assertThat(window.generationTokens().ratePerS()).isCloseTo(1000 / 7.6, within(1e-9));
        assertThat(window.serverScrapes()).isEqualTo(5);
    }

    /** {@code reading} as a scrape asked for at {@code askedS} and answered at the reading's time. */
    static ServerReading late(ServerReading reading, double askedS) {
        return new ServerReading(at(askedS), reading.nanos(), reading.signals(), reading.simulator());
    }

    @Test
    void gaugesAreTimeWeightedOverTheWindow() {
        // 0.5·1 + 0.95·2 + 0.8·1.5 + 0.92·1.5 = 4.98 over 6 s; 0.91 arrives after the end
        assertThat(summary.kvCacheUsage().mean()).isCloseTo(0.83, within(1e-12));
        assertThat(summary.kvCacheUsage().max()).isEqualTo(0.95);
        // KV ≥ 0.9 on [11, 13) and [14.5, 16]: 3.5 of 6 s; with a request waiting only the latter
        assertThat(summary.kvCacheSaturatedShare()).isCloseTo(3.5 / 6, within(1e-12));
        assertThat(summary.kvCacheSaturatedWhileWaitingShare()).isCloseTo(1.5 / 6, within(1e-12));
        // waiting: 1 on [13, 14.5), 5 on [14.5, 16] -> 9 / 6; thirds [10, 12] and [14, 16]
        assertThat(summary.requestsWaiting().mean()).isCloseTo(1.5, within(1e-12));
        assertThat(summary.requestsWaiting().max()).isEqualTo(5);
        assertThat(summary.requestsWaiting().firstThirdMean()).isEqualTo(0);
        assertThat(summary.requestsWaiting().lastThirdMean()).isCloseTo(4.0, within(1e-12)); // (1·0.5 + 5·1.5) / 2
        assertThat(summary.requestsRunning().mean()).isEqualTo(4);
    }

    @Test
    void histogramQuantilesFromBucketDeltas() {
        // window buckets: ≤0.1: 20, ≤0.5: 80, +Inf: 100; sum 40 s
        TelemetrySummary.HistogramStats ttft = summary.serverTtftMs();
        assertThat(ttft.count()).isEqualTo(100);
        assertThat(ttft.mean()).isCloseTo(400, within(1e-9));
        // rank 50 in (0.1, 0.5]: 0.1 + 0.4 · (50 − 20) / 60
        assertThat(ttft.p50()).isCloseTo(300, within(1e-9));
        // rank 90 falls in +Inf: the highest finite bound
        assertThat(ttft.p90()).isCloseTo(500, within(1e-9));
        // What the buckets know: p50 lies in (100, 500] ms, p90 somewhere above 500 ms.
        assertThat(ttft.p50Bucket()).containsExactly(100.0, 500.0);
        assertThat(ttft.p90Bucket()).containsExactly(500.0, null);
        assertThat(summary.serverQueueTimeMs()).isNull();
    }

    @Test
    void perSecondRowsHoldTheLastReadingOfEachSecond() {
        assertThat(summary.perSecond())
                .containsExactly(
                        new SecondRow(0, null, null, null, 40.0, 3.5), // GPUs: (60 + 20) / 2 %, (1536 + 2048) MiB
                        new SecondRow(1, 0.95, 4.0, 0.0, null, null),
                        new SecondRow(2, null, null, null, 100.0, 1.0),
                        new SecondRow(3, 0.80, 4.0, 1.0, null, null),
                        new SecondRow(4, 0.92, 4.0, 5.0, null, null),
                        new SecondRow(5, null, null, null, null, null));
    }

    @Test
    void gpuStatsPerGpuAndTogether() {
        TelemetrySummary.GpuSummary gpu = summary.gpu();
        assertThat(gpu.gpus()).hasSize(2);
        TelemetrySummary.GpuStats g0 = gpu.gpus().getFirst();
        assertThat(g0.utilizationMean())
                .isCloseTo(80, within(1e-9)); // (80 + 60 + 100) / 3; the 9.0 s sample is outside
        assertThat(g0.utilizationMax()).isEqualTo(100);
        assertThat(g0.memoryUsedGibMax()).isEqualTo(1.5);
        assertThat(g0.memoryUsedMaxShare()).isEqualTo(0.75);
        assertThat(gpu.gpus().get(1).memoryUsedMaxShare()).isEqualTo(1.0);
        assertThat(gpu.utilizationMean()).isCloseTo(55, within(1e-9)); // (80 + 30) / 2
        assertThat(gpu.memoryUsedGibMax()).isEqualTo(3.5);
        assertThat(gpu.memoryTotalGib()).isEqualTo(4.0);
        assertThat(summary.hardware()).isEqualTo(new Hardware("T", 2, 2.0));
        // Power inside the window; idle from the readings before it: g0 has one (9.0 s), g1 none.
        assertThat(g0.powerWattsMean()).isEqualTo(100.0);
        assertThat(g0.idlePowerWatts()).isEqualTo(100.0);
        assertThat(gpu.gpus().get(1).idlePowerWatts()).isNull();
    }

    @Test
    void theSimulatorsOwnDelaysAreReadOverTheWindowAndOnlyFromTheSimulator() {
        TelemetrySummary.SimulatorStats simulator =
                WindowAnalysis.summarise(simulatorRecording(), START, END).simulator();

        // 0.1 ms on [10, 12), 15 ms on [12, 14), 2 ms on [14, 16]
        assertThat(simulator.stepLagMeanMs()).isCloseTo((0.1 * 2 + 15 * 2 + 2 * 2) / 6, within(1e-9));
        assertThat(simulator.stepLagMaxMs()).isCloseTo(15, within(1e-9));
        // window buckets: ≤1 ms: 50, ≤10 ms: 90, +Inf: 100
        assertThat(simulator.tokenWriteDelayMs().count()).isEqualTo(100);
        assertThat(simulator.tokenWriteDelayMs().p50()).isCloseTo(1, within(1e-9));
        // rank 90 in (1, 10] ms: 1 + 9 · (90 − 50) / 40
        assertThat(simulator.tokenWriteDelayMs().p90()).isCloseTo(10, within(1e-9));
        assertThat(simulator.tokenWriteDelayMs().p99()).isCloseTo(10, within(1e-9));
        assertThat(summary.simulator()).isNull();
    }

    @Test
    void withoutReadingsEverythingIsAbsentNotZero() {
        TelemetrySummary empty = WindowAnalysis.summarise(
                new TelemetryRecording(null, List.of(), List.of(), List.of(), List.of()), START, END);

        assertThat(empty.kvCacheUsage()).isNull();
        assertThat(empty.generationTokens()).isNull();
        assertThat(empty.serverTtftMs()).isNull();
        assertThat(empty.gpu()).isNull();
        assertThat(empty.hardware()).isNull();
        assertThat(empty.perSecond())
                .hasSize(6)
                .allSatisfy(row -> assertThat(row.kvCacheUsage()).isNull());
    }

    @Test
    void serialisesWithSnakeCaseKeys() throws Exception {
        JsonNode json = new ObjectMapper().valueToTree(summary);

        assertThat(json.get("server_kind").asText()).isEqualTo("vllm");
        assertThat(json.has("kv_cache_saturated_while_waiting_share")).isTrue();
        assertThat(json.get("generation_tokens").get("rate_per_s").asDouble()).isCloseTo(2200 / 6.7, within(1e-9));
        assertThat(json.get("requests_waiting").has("first_third_mean")).isTrue();
        assertThat(json.get("server_ttft_ms").get("p50").asDouble()).isCloseTo(300, within(1e-9));
        assertThat(json.get("per_second").get(0).get("gpu_mem_used_gib").asDouble())
                .isEqualTo(3.5);
        assertThat(json.get("gpu").get("gpus").get(0).has("power_watts_mean")).isTrue();
        assertThat(json.get("hardware").get("gpu_memory_gib").asDouble()).isEqualTo(2.0);
        assertThat(json.get("prompt_tokens").isNull()).isTrue();
    }
}
