package dev.llmload.telemetry.analysis;

import dev.llmload.note.Note;
import dev.llmload.telemetry.analysis.TelemetrySummary.CounterStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.GaugeStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.GpuStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.HistogramStats;
import dev.llmload.telemetry.analysis.TelemetrySummary.SimulatorStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Findings drawn from a {@link TelemetrySummary} and the client's own figures, each with the
 * numbers behind it. The rules and thresholds are listed in docs/telemetry.md. Pure.
 */
public final class TelemetryNotes {

    /** Share of the window the KV cache must be saturated with requests waiting to be noted. */
    static final double KV_SATURATED_SHARE = 0.10;
    /** GPU busy below this (%, or engine-active × 100) while latency is high suggests another bottleneck. */
    static final double GPU_BUSY_BELOW_PERCENT = 50;

    static final double GPU_MEMORY_NEAR_LIMIT = 0.95;
    static final double TOKEN_MISMATCH = 0.02;
    /** Server and client TTFT p50 further apart than this ratio and {@link #TTFT_MISMATCH_MIN_MS}. */
    static final double TTFT_MISMATCH_RATIO = 1.5;

    static final double TTFT_MISMATCH_MIN_MS = 50;
    /**
     * llmload's simulator's own delays from which a run measured it too: its mean step lag, or the
     * p90 of its token write delay. Not the max or the p99, which one busy moment of a shared
     * machine reaches without the simulator falling behind.
     */
    static final double SIMULATOR_BEHIND_MS = 10;

    private TelemetryNotes() {}

    public static List<Note> evaluate(TelemetrySummary summary, ClientFigures client) {
        List<Note> notes = new ArrayList<>();
        kvSaturated(summary, notes);
        if (!client.closedLoop()) {
            // A closed loop's waiting queue is the share of its own fixed concurrency the server
            // does not run at once: it fills as the run starts and cannot grow without bound, so a
            // rise says how the client set the load, not that the server fell behind it.
            queueBuilding(summary.requestsWaiting(), notes);
        }
        preemptions(summary.preemptions(), notes);
        gpuUnderused(summary, client, notes);
        gpuMemory(summary, notes);
        tokens("generation", summary.generationTokens(), client.generationTokens(), notes);
        tokens("prompt", summary.promptTokens(), client.promptTokens(), notes);
        ttft(summary, client, notes);
        simulatorBehind(summary.simulator(), notes);
        return notes;
    }

    private static void kvSaturated(TelemetrySummary s, List<Note> notes) {
        Double share = s.kvCacheSaturatedWhileWaitingShare();
        if (share != null && share >= KV_SATURATED_SHARE) {
            notes.add(new Note(
                    "kv_cache_saturated",
                    String.format(
                            Locale.ROOT,
                            "KV cache was at least %.0f%% full while requests waited in the server for %.0f%% of the window"
                                    + " (mean KV use %.2f, up to %s waiting): the KV cache limits concurrency",
                            WindowAnalysis.KV_SATURATED * 100,
                            share * 100,
                            s.kvCacheUsage().mean(),
                            number(s.requestsWaiting().max()))));
        }
    }

    private static void queueBuilding(GaugeStats waiting, List<Note> notes) {
        if (waiting == null || waiting.firstThirdMean() == null || waiting.lastThirdMean() == null) {
            return;
        }
        double first = waiting.firstThirdMean();
        double last = waiting.lastThirdMean();
        // Two or more extra requests waiting on average: one is the ordinary wait for the next engine step.
        if (last >= first + 2 && last >= 2 * first) {
            notes.add(new Note(
                    "queue_building",
                    String.format(
                            Locale.ROOT,
                            "requests waiting in the server rose from %.1f on average in the first third of the window to %.1f"
                                    + " in the last third: the load exceeds what the server sustains, so latency grows with the run",
                            first,
                            last)));
        }
    }

    private static void preemptions(CounterStats preemptions, List<Note> notes) {
        if (preemptions != null && preemptions.delta() > 0) {
            notes.add(new Note(
                    "preemptions",
                    String.format(
                            Locale.ROOT,
                            "the server preempted %s requests during the window (%.2f/s): KV cache ran out and their work was"
                                    + " recomputed, which lengthens their latency",
                            number(preemptions.delta()),
                            preemptions.ratePerS())));
        }
    }

    private static void simulatorBehind(SimulatorStats simulator, List<Note> notes) {
        if (simulator == null) {
            return;
        }
        HistogramStats writeDelay = simulator.tokenWriteDelayMs();
        boolean lagging = simulator.stepLagMeanMs() != null && simulator.stepLagMeanMs() >= SIMULATOR_BEHIND_MS;
        boolean writingLate = writeDelay != null && writeDelay.p90() != null && writeDelay.p90() >= SIMULATOR_BEHIND_MS;
        if (!lagging && !writingLate) {
            return;
        }
        notes.add(new Note(
                "simulator_behind",
                String.format(
                        Locale.ROOT,
                        "the simulator itself ran behind (engine step lag mean %s ms, max %s ms; token write delay p90 %s ms,"
                                + " p99 %s ms): the latencies measured include its own delays, not only the modelled engine's"
                                + " and the client's; give it a CPU of its own, fewer streams or a lower --speedup",
                        oneDecimal(simulator.stepLagMeanMs()),
                        oneDecimal(simulator.stepLagMaxMs()),
                        oneDecimal(writeDelay == null ? null : writeDelay.p90()),
                        oneDecimal(writeDelay == null ? null : writeDelay.p99()))));
    }

    private static String oneDecimal(Double value) {
        return value == null ? "?" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static void gpuUnderused(TelemetrySummary s, ClientFigures client, List<Note> notes) {
        if (s.gpu() == null || client.latencyP99Ms() == null || client.latencyP99Ms() <= client.highLatencyMs()) {
            return;
        }
        boolean engineActive = s.gpu().engineActiveMean() != null;
        Double busy = engineActive ? s.gpu().engineActiveMean() * 100 : s.gpu().utilizationMean();
        if (busy != null && busy < GPU_BUSY_BELOW_PERCENT) {
            notes.add(new Note(
                    "gpu_underused",
                    String.format(
                            Locale.ROOT,
                            "GPUs were busy %.0f%% of the time on average (%s) while client latency p99 was %.0f ms (over %.0f ms):"
                                    + " the bottleneck is likely CPU, network or scheduling rather than the GPU",
                            busy,
                            engineActive ? "DCGM_FI_PROF_GR_ENGINE_ACTIVE" : "utilization",
                            client.latencyP99Ms(),
                            client.highLatencyMs())));
        }
    }

    private static void gpuMemory(TelemetrySummary s, List<Note> notes) {
        if (s.gpu() == null) {
            return;
        }
        for (GpuStats gpu : s.gpu().gpus()) {
            if (gpu.memoryUsedMaxShare() != null && gpu.memoryUsedMaxShare() > GPU_MEMORY_NEAR_LIMIT) {
                notes.add(new Note(
                        "gpu_memory_near_limit",
                        String.format(
                                Locale.ROOT,
                                "GPU %d (%s) used up to %.1f%% of its memory (%.1f of %.1f GiB); engines that reserve the KV cache"
                                        + " up front (vLLM, SGLang) look like this by design, otherwise an out-of-memory error is near",
                                gpu.index(),
                                gpu.name() == null ? "unknown model" : gpu.name(),
                                gpu.memoryUsedMaxShare() * 100,
                                gpu.memoryUsedGibMax(),
                                gpu.memoryTotalGib())));
            }
        }
    }

    private static void tokens(String what, CounterStats server, Long client, List<Note> notes) {
        if (server == null || client == null || client == 0) {
            return;
        }
        double apart = Math.abs(server.delta() - client) / client;
        if (apart > TOKEN_MISMATCH) {
            notes.add(new Note(
                    "token_count_mismatch",
                    String.format(
                            Locale.ROOT,
                            "the server counted %s %s tokens during the window, the client %d (%.1f%% apart): other traffic on"
                                    + " the server, warm-up requests inside the scrape window, or a tokenizer that differs from the"
                                    + " server's",
                            number(server.delta()),
                            what,
                            client,
                            apart * 100)));
        }
    }

    private static void ttft(TelemetrySummary s, ClientFigures client, List<Note> notes) {
        if (s.serverTtftMs() == null || s.serverTtftMs().p50() == null || client.ttftP50Ms() == null) {
            return;
        }
        double server = s.serverTtftMs().p50();
        double seen = client.ttftP50Ms();
        double ratio = Math.max(server, seen) / Math.max(Math.min(server, seen), 1e-9);
        if (ratio > TTFT_MISMATCH_RATIO && Math.abs(server - seen) > TTFT_MISMATCH_MIN_MS) {
            notes.add(new Note(
                    "ttft_mismatch",
                    String.format(
                            Locale.ROOT,
                            "TTFT p50 was %.0f ms at the server (estimated from its histogram buckets) but %.0f ms at the client:"
                                    + " %s",
                            server,
                            seen,
                            seen > server
                                    ? "the difference is spent outside the engine (network, proxy or gateway, client queueing)"
                                    : "the client saw first tokens sooner than the server reports, so the buckets are too coarse or"
                                            + " the server counts time the client does not")));
        }
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
