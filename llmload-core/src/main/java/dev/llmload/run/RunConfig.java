package dev.llmload.run;

import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything that determines a run, resolved from flags and config; it is written into the report
 * so the run can be repeated ({@code llmload run --config report.json}). It never holds the API key.
 *
 * @param url           the server; null when the embedded simulator is the target
 * @param numRequests   requests to send (warm-up included); null when only {@code duration} bounds the run
 * @param duration      stop sending after this long (warm-up included); null for no time bound
 * @param warmup        the first N requests are excluded from statistics
 * @param warmupTime    requests intended to start within this time of the run's start are excluded too
 * @param telemetry     server and GPU metrics to collect alongside the load
 * @param grace         how long in-flight requests may finish after the run stops sending
 * @param ioThreads     event loop threads of the client
 * @param scenario      the preset the defaults came from, or null
 * @param slo           per-request limits for goodput, e.g. {@code ttft:500,tpot:50}; null for none
 * @param exports       extra result formats to write, e.g. {@code vllm}
 */
public record RunConfig(
        String url,
        ApiKind api,
        String model,
        boolean stream,
        boolean ignoreEos,
        LoadSpec load,
        Long numRequests,
        Duration duration,
        int warmup,
        Duration warmupTime,
        DataSpec data,
        long seed,
        Timeouts timeouts,
        TelemetrySpec telemetry,
        Duration grace,
        Path outputDir,
        Map<String, String> metadata,
        List<String> notes,
        boolean insecure,
        int ioThreads,
        String scenario,
        String slo,
        List<String> exports) {

    public RunConfig {
        metadata = Map.copyOf(metadata);
        notes = List.copyOf(notes);
        exports = List.copyOf(exports);
    }

    public RunConfig withOutputDir(Path dir) {
        return new RunConfig(url, api, model, stream, ignoreEos, load, numRequests, duration, warmup, warmupTime,
                data, seed, timeouts, telemetry, grace, dir, metadata, notes, insecure, ioThreads, scenario, slo, exports);
    }

    public RunConfig withLoad(LoadSpec newLoad) {
        return new RunConfig(url, api, model, stream, ignoreEos, newLoad, numRequests, duration, warmup, warmupTime,
                data, seed, timeouts, telemetry, grace, outputDir, metadata, notes, insecure, ioThreads, scenario, slo, exports);
    }
}
