package dev.llmload.report;

import dev.llmload.analysis.ScheduleFidelity;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.metrics.RunResults;
import dev.llmload.run.LoadSpec;
import dev.llmload.run.RunConfig;
import dev.llmload.stats.Summary;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import java.util.List;

/**
 * {@code report.json}: the full record of one run, with the top-level keys of DESIGN.md §5
 * (serialised in snake_case), plus the resolved {@code config} that repeats the run and the
 * per-second {@code timeseries} of the measured phase, and {@code schedule}, how well the client
 * kept its schedule (null for a closed loop of independent requests). Unknown values are null,
 * never guessed.
 */
public record RunReport(
        int schemaVersion,
        Tool tool,
        Run run,
        Model model,
        Service service,
        Hardware hardware,
        Load load,
        Data data,
        RunResults results,
        TelemetrySummary telemetry,
        List<Note> notes,
        RunConfig config,
        TimeSeries timeseries,
        ScheduleFidelity schedule) {

    public static final int SCHEMA_VERSION = 1;

    /** A report without a {@code schedule} section. */
    public RunReport(int schemaVersion, Tool tool, Run run, Model model, Service service, Hardware hardware, Load load,
                     Data data, RunResults results, TelemetrySummary telemetry, List<Note> notes, RunConfig config,
                     TimeSeries timeseries) {
        this(schemaVersion, tool, run, model, service, hardware, load, data, results, telemetry, notes, config,
                timeseries, null);
    }

    public record Tool(String name, String version) {}

    /**
     * @param interrupted true when the run was stopped (Ctrl-C, SIGTERM) before it finished
     * @param client      the machine llmload ran on; never the server's hardware
     */
    public record Run(String id, String startedAt, String endedAt, String commandLine, long seed, boolean interrupted,
                      ClientHost client) {}

    public record Model(String name, String parameters, String precision, String quantization) {}

    /** @param framework e.g. vllm, sglang; {@code llmload-sim} for the embedded simulator */
    public record Service(String url, String api, String framework, String version, String launchArgs, boolean streaming) {}

    /** The server's hardware, from metadata or telemetry; null where unknown. */
    public record Hardware(String gpuModel, Integer gpuCount, Double gpuMemoryGib, String cpu, Double ramGib) {}

    public record Load(String mode, Integer concurrency, Double requestRate, String arrival, Double burstiness,
                       Integer maxConcurrency, Long numRequests, Double durationS, int warmup) {

        public static Load of(LoadSpec spec, Long numRequests, Double durationS, int warmup) {
            return new Load(spec.mode(), spec.concurrency(), spec.requestRate(), spec.arrival(), spec.burstiness(),
                    spec.maxConcurrency(), numRequests, durationS, warmup);
        }
    }

    /**
     * @param inputTokens  the requested distribution and the summary of what was sent
     * @param contentHash  identifies the prompts: a hash of the dataset file, or of the synthetic parameters
     */
    public record Data(String source, String contentHash, TokenShape inputTokens, TokenShape outputTokens) {}

    /** @param requested the distribution asked for, e.g. {@code uniform:256:768}; null for a dataset's own lengths */
    public record TokenShape(String requested, Summary measured) {}

    /** @param kind e.g. {@code rate_limited}, {@code user}; {@code message} carries the evidence */
    public record Note(String kind, String message) {}
}
