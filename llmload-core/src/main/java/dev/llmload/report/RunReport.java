package dev.llmload.report;

import dev.llmload.analysis.NoteDetector;
import dev.llmload.analysis.Saturation;
import dev.llmload.analysis.ScheduleFidelity;
import dev.llmload.analysis.SteadyState;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.client.ClientCost;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.stats.Summary;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import java.util.List;

/**
 * {@code report.json}: the full record of one run, with the top-level keys of DESIGN.md §5
 * (serialised in snake_case), plus the resolved {@code config} that repeats the run and the
 * per-second {@code timeseries} of the measured phase, {@code efficiency}, the cost and energy per
 * token (null without a GPU price or power readings), and {@code schedule}, how well the client
 * kept its schedule (null for a closed loop of independent requests), and {@code client}, what
 * llmload itself cost while it measured (null when it was not recorded: a run rebuilt after a
 * crash, a merge of segments), {@code saturation}, the load offered beside the load served (null
 * when nothing was measured), and {@code steady_state}, the window of the run in steady state with
 * its own results (null for fewer than 50 measured requests). Unknown values are null, never guessed.
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
        Efficiency efficiency,
        List<Note> notes,
        RunConfig config,
        TimeSeries timeseries,
        ScheduleFidelity schedule,
        ClientCost client,
        Saturation saturation,
        SteadyState steadyState) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * This report with everything that derives from the requests replaced by {@code measurements}:
     * results, the measured token shapes, the time series, the schedule and the tool's notes on the
     * requests (which go first, as at the end of a run). The run's own record (model, service,
     * config, telemetry, the client's cost, and the notes of the telemetry, the client and the user)
     * is kept. Used at the end of a run and by {@code llmload report}, so a rebuilt report equals
     * the original.
     */
    public RunReport withMeasurements(Measurements measurements, String endedAt, boolean interrupted) {
        List<Note> allNotes = new java.util.ArrayList<>(measurements.notes());
        notes.stream().filter(n -> !NoteDetector.KINDS.contains(n.kind())).forEach(allNotes::add);
        RunResults newResults = measurements.results();
        return new RunReport(
                schemaVersion,
                tool,
                new Run(
                        run.id(),
                        run.startedAt(),
                        endedAt,
                        run.commandLine(),
                        run.seed(),
                        interrupted,
                        run.client(),
                        run.segment(),
                        run.segments()),
                model,
                service,
                hardware,
                load,
                new Data(
                        data.source(),
                        data.contentHash(),
                        new TokenShape(data.inputTokens().requested(), newResults.inputTokens()),
                        new TokenShape(data.outputTokens().requested(), newResults.outputTokens())),
                newResults,
                telemetry,
                Efficiency.of(
                        newResults,
                        hardware == null ? null : hardware.gpuCount(),
                        telemetry,
                        config == null ? null : config.output().gpuHourPrice()),
                List.copyOf(allNotes),
                config,
                measurements.timeseries(),
                measurements.schedule(),
                client,
                measurements.saturation(),
                measurements.steadyState());
    }

    public record Tool(String name, String version) {}

    /**
     * @param interrupted true when the run was stopped (Ctrl-C, SIGTERM) before it finished
     * @param client      the machine llmload ran on; never the server's hardware
     * @param segment     the segment this run sent of a run spread over hosts, and how its start went;
     *                    absent for a whole run
     * @param segments    the segments a merged run was made of ({@code llmload merge}); absent otherwise
     */
    public record Run(
            String id,
            String startedAt,
            String endedAt,
            String commandLine,
            long seed,
            boolean interrupted,
            ClientHost client,

            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            SegmentStart segment,

            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            List<SegmentSummary> segments) {

        public Run(
                String id,
                String startedAt,
                String endedAt,
                String commandLine,
                long seed,
                boolean interrupted,
                ClientHost client) {
            this(id, startedAt, endedAt, commandLine, seed, interrupted, client, null, null);
        }
    }

    /**
     * One segment of a merged run, from its own journal.
     *
     * @param directory      the segment's directory name
     * @param requests       requests it attempted (measured)
     * @param errorRate      failed of attempted
     * @param startErrorMs   its start error by its own clock (see {@link SegmentStart#startErrorMs})
     * @param sendLagP99Ms   p99 of its client queue time: how late it sent (open loop) or waited at a gate
     */
    public record SegmentSummary(
            int index,
            String directory,
            long requests,
            long succeeded,
            Double errorRate,
            Double requestThroughput,
            Double outputTokenThroughput,
            Double startErrorMs,
            Double sendLagP99Ms) {}

    /**
     * One segment's part and start (docs/distributed.md).
     *
     * @param index           this segment, 0 to count − 1
     * @param count           the number of segments
     * @param startAt         {@code --start-at} as written; null when the segment started when ready
     * @param target          the instant it resolved to (RFC 3339); null without {@code --start-at}
     * @param originWallClock when this host's clock read the run's start, as this host saw it
     * @param startErrorMs    originWallClock − target by this host's clock: its own start error,
     *                        beside which the clock's own offset (clockSync) must be read
     * @param clockSync       what the operating system says about this host's clock
     */
    public record SegmentStart(
            int index,
            int count,
            String startAt,
            String target,
            String originWallClock,
            Double startErrorMs,
            dev.llmload.segment.ClockSync clockSync) {}

    /** @param maxModelLen the server's context length as it reported it; null when it did not */
    public record Model(String name, String parameters, String precision, String quantization, Integer maxModelLen) {}

    /** @param framework e.g. vllm, sglang; {@code llmload-sim} for the embedded simulator */
    public record Service(
            String url, String api, String framework, String version, String launchArgs, boolean streaming) {}

    /** The server's hardware, from metadata or telemetry; null where unknown. */
    public record Hardware(String gpuModel, Integer gpuCount, Double gpuMemoryGib, String cpu, Double ramGib) {}

    /**
     * The load as report.json's {@code load} section gives it, typed: made from the
     * configuration's {@link dev.llmload.config.Load#recorded()}, the projection the {@code config}
     * section's load is written from too, and read back from a report as the same types.
     *
     * @param arrival the open loop's arrivals ({@code trace} for a replay); null for a closed loop
     */
    public record Load(
            dev.llmload.config.Load.Mode mode,
            Integer concurrency,
            Double requestRate,
            dev.llmload.config.Load.Arrival arrival,
            Double burstiness,
            Integer maxConcurrency,
            Long numRequests,
            Double durationS,
            int warmup) {

        /** The load section of a run of this configuration. */
        public static Load of(dev.llmload.config.RunConfig config) {
            dev.llmload.config.Bounds bounds = config.bounds();
            return of(
                    config.load(),
                    bounds.numRequests(),
                    bounds.duration() == null ? null : bounds.duration().toMillis() / 1000.0,
                    bounds.warmup());
        }

        public static Load of(dev.llmload.config.Load load, Long numRequests, Double durationS, int warmup) {
            dev.llmload.config.Load.Recorded recorded = load.recorded();
            return new Load(
                    recorded.mode(),
                    recorded.concurrency(),
                    recorded.requestRate(),
                    recorded.arrival(),
                    recorded.burstiness(),
                    recorded.maxConcurrency(),
                    numRequests,
                    durationS,
                    warmup);
        }
    }

    /**
     * @param inputTokens  the requested distribution and the summary of what was sent
     * @param contentHash  identifies the prompts: a hash of the dataset file, or of the synthetic parameters
     */
    public record Data(String source, String contentHash, TokenShape inputTokens, TokenShape outputTokens) {}

    /** @param requested the distribution asked for, e.g. {@code uniform:256:768}; null for a dataset's own lengths */
    public record TokenShape(String requested, Summary measured) {}
}
