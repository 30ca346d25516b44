package dev.llmload.telemetry.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.note.Note;
import dev.llmload.telemetry.TelemetryRecording;
import dev.llmload.telemetry.engine.EngineKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class TelemetryNotesTest {

    /** The window of {@link WindowAnalysisTest}: KV saturated with requests waiting 25% of it, queue 0 → 4. */
    final TelemetrySummary busy =
            WindowAnalysis.summarise(WindowAnalysisTest.recording(), WindowAnalysisTest.START, WindowAnalysisTest.END);

    @Test
    void eachRuleFiresWithItsEvidence() {
        List<Note> notes = TelemetryNotes.evaluate(busy, new ClientFigures(900.0, null, 2100L, 10_000.0, 5000, false));

        assertThat(notes)
                .extracting(Note::kind)
                .containsExactly(
                        "kv_cache_saturated",
                        "queue_building",
                        "preemptions",
                        "gpu_memory_near_limit",
                        "token_count_mismatch",
                        "ttft_mismatch");
        assertThat(notes)
                .extracting(Note::message)
                .containsExactly(
                        "KV cache was at least 90% full while requests waited in the server for 25% of the window"
                                + " (mean KV use 0.83, up to 5 waiting): the KV cache limits concurrency",
                        "requests waiting in the server rose from 0.0 on average in the first third of the window to 4.0"
                                + " in the last third: the load exceeds what the server sustains, so latency grows with the run",
                        "the server preempted 2 requests during the window (0.30/s): KV cache ran out and their work was"
                                + " recomputed, which lengthens their latency",
                        "GPU 1 (T) used up to 100.0% of its memory (2.0 of 2.0 GiB); engines that reserve the KV cache"
                                + " up front (vLLM, SGLang) look like this by design, otherwise an out-of-memory error is near",
                        "the server counted 2200 generation tokens during the window, the client 2100 (4.8% apart): other"
                                + " traffic on the server, warm-up requests inside the scrape window, or a tokenizer that differs"
                                + " from the server's",
                        "TTFT p50 was 300 ms at the server (estimated from its histogram buckets) but 900 ms at the client:"
                                + " the difference is spent outside the engine (network, proxy or gateway, client queueing)");
    }

    /**
     * The same window under a closed loop: the waiting queue rising from 0 to 4 is the client's own
     * concurrency filling the server, not a load the server cannot sustain.
     */
    @Test
    void aClosedLoopGetsNoQueueBuildingNoteAboutItsOwnConcurrency() {
        List<Note> open = TelemetryNotes.evaluate(busy, new ClientFigures(900.0, null, 2100L, 10_000.0, 5000, false));
        List<Note> closed = TelemetryNotes.evaluate(busy, new ClientFigures(900.0, null, 2100L, 10_000.0, 5000, true));

        assertThat(open).extracting(Note::kind).contains("queue_building");
        assertThat(closed).extracting(Note::kind).doesNotContain("queue_building");
        assertThat(closed).hasSize(open.size() - 1);
    }

    @Test
    void aSimulatorThatRanBehindIsNamedAndOneThatKeptUpIsNot() {
        TelemetrySummary behind = WindowAnalysis.summarise(
                WindowAnalysisTest.simulatorRecording(), WindowAnalysisTest.START, WindowAnalysisTest.END);
        ClientFigures client = new ClientFigures(null, null, null, null, 5000, false);

        assertThat(TelemetryNotes.evaluate(behind, client))
                .containsExactly(
                        new Note(
                                "simulator_behind",
                                "the simulator itself ran behind (engine step lag mean 5.7 ms, max 15.0 ms; token write delay p90"
                                        + " 10.0 ms, p99 10.0 ms): the latencies measured include its own delays, not only the modelled"
                                        + " engine's and the client's; give it a CPU of its own, fewer streams or a lower --speedup"));

        // One busy moment, not falling behind: a 30 ms step lag for a tenth of a second (mean 0.6 ms),
        // 3 of 100 writes late (p99 at the 10 ms bucket, p90 under 1 ms).
        TelemetryRecording keptUp = new TelemetryRecording(
                EngineKind.VLLM,
                List.of(
                        WindowAnalysisTest.simulatorReading(9.5, 0.0001, WindowAnalysisTest.writeDelay(100, 100, 100)),
                        WindowAnalysisTest.simulatorReading(15.9, 0.030, null),
                        WindowAnalysisTest.simulatorReading(
                                16.5, 0.0002, WindowAnalysisTest.writeDelay(195, 197, 200))),
                List.of(),
                List.of(),
                List.of());
        assertThat(TelemetryNotes.evaluate(
                        WindowAnalysis.summarise(keptUp, WindowAnalysisTest.START, WindowAnalysisTest.END), client))
                .isEmpty();
    }

    @Test
    void closeFiguresRaiseNoMismatch() {
        // 2180 vs 2200 is 0.9% apart; 320 ms vs 300 ms is within 1.5x and 50 ms
        List<Note> notes = TelemetryNotes.evaluate(busy, new ClientFigures(320.0, null, 2180L, 10_000.0, 5000, false));

        assertThat(notes).extracting(Note::kind).doesNotContain("token_count_mismatch", "ttft_mismatch");
    }

    @Test
    void idleGpuWithHighLatencyPointsElsewhere() {
        TelemetryRecording quiet = new TelemetryRecording(
                EngineKind.VLLM,
                List.of(
                        WindowAnalysisTest.reading(9.0, 0.5, 0, 0, 0, null, null, null),
                        WindowAnalysisTest.reading(17.0, 0.5, 0, 100, 0, null, null, null)),
                List.of(WindowAnalysisTest.gpu(11, "g0", 20, 100), WindowAnalysisTest.gpu(12, "g0", 30, 100)),
                List.of(),
                List.of());
        TelemetrySummary summary = WindowAnalysis.summarise(quiet, WindowAnalysisTest.START, WindowAnalysisTest.END);

        assertThat(TelemetryNotes.evaluate(summary, new ClientFigures(null, null, null, 8000.0, 5000, false)))
                .containsExactly(new Note(
                        "gpu_underused",
                        "GPUs were busy 25% of the time on average"
                                + " (utilization) while client latency p99 was 8000 ms (over 5000 ms): the bottleneck is likely"
                                + " CPU, network or scheduling rather than the GPU"));
        assertThat(TelemetryNotes.evaluate(summary, new ClientFigures(null, null, null, 4000.0, 5000, false)))
                .isEmpty();
    }
}
