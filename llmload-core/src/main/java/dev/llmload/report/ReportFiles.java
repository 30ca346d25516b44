package dev.llmload.report;

import dev.llmload.report.format.SummaryCsv;
import dev.llmload.report.format.TimeSeriesCsv;
import dev.llmload.report.format.VllmExport;
import dev.llmload.report.html.HtmlReport;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.llmload.client.ClientCost;
import dev.llmload.record.RecordSource;
import dev.llmload.record.RequestRecord;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a run directory's report files. Each file is written to a temporary name and renamed, so
 * a reader never sees half a report.
 */
public final class ReportFiles {

    public static final String REPORT_JSON = "report.json";
    public static final String SUMMARY_CSV = "summary.csv";

    /** The mapper for every JSON file llmload writes: snake_case keys, nulls kept, indented. */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .findAndAddModules()
            .build();

    private ReportFiles() {}

    /** The run's record as known before the first request; {@code llmload report} rebuilds from it after a crash. */
    public static final String RUN_START_JSON = "run.json";
    /** A sweep directory's index of its points ({@code sweep.SweepReport}); its runs are directories beside it. */
    public static final String SWEEP_JSON = "sweep.json";

    /**
     * Reads a report.json (or run.json) back. Derived values written beside the record's own
     * (such as a summary's {@code low_confidence}) are recomputed, not read.
     *
     * @throws IOException with a one-line message naming the file
     */
    public static RunReport readReport(Path file) throws IOException {
        try {
            return JSON.readerFor(RunReport.class)
                    .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(file.toFile());
        } catch (IOException | IllegalArgumentException e) { // the recorded config is checked as it is read
            String message = e.getMessage() == null ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
            throw new IOException(file + " is not an llmload report: " + message, e);
        }
    }

    public static void writeRunStart(Path dir, RunReport skeleton) throws IOException {
        writeAtomically(dir.resolve(RUN_START_JSON), JSON.writeValueAsString(skeleton) + "\n");
    }

    /**
     * Writes every report file of a run directory from its report and records: report.json,
     * summary.csv, timeseries.csv (with the client's per-second columns when its cost was recorded,
     * and the telemetry's when there are any), report.html and the exports the run asked for. The
     * journal is not touched.
     *
     * @param page    what the page shows of the requests ({@link Measurements#page})
     * @param records the run's records with their token events, read only for the vLLM export,
     *                which lists every request's token times (so it holds them all while it is written)
     */
    public static void writeRun(Path dir, RunReport report, RunPage page, RecordSource records) throws IOException {
        writeAtomically(dir.resolve(REPORT_JSON), JSON.writeValueAsString(report) + "\n");
        writeAtomically(dir.resolve(SUMMARY_CSV), SummaryCsv.header() + "\n" + SummaryCsv.row(report) + "\n");
        Map<String, Double[]> extra = clientColumns(report.client());
        extra.putAll(telemetryColumns(report.telemetry()));
        writeAtomically(dir.resolve(TimeSeriesCsv.FILE_NAME), TimeSeriesCsv.format(report.timeseries(), extra));
        writeAtomically(dir.resolve(HtmlReport.FILE_NAME), HtmlReport.forRun(report, page,
                htmlTelemetry(telemetryColumns(report.telemetry()))));
        if (report.config() != null && report.config().output().exports().contains("vllm")) {
            List<RequestRecord> all = new ArrayList<>();
            records.forEach(all::add);
            writeAtomically(dir.resolve(VllmExport.fileName(report)),
                    JSON.writeValueAsString(VllmExport.toJson(report, all)) + "\n");
        }
    }

    /** The same columns for the HTML page, which marks a missing second with NaN. */
    private static Map<String, double[]> htmlTelemetry(Map<String, Double[]> columns) {
        Map<String, double[]> series = new LinkedHashMap<>();
        columns.forEach((name, values) -> {
            double[] column = new double[values.length];
            boolean any = false;
            for (int i = 0; i < values.length; i++) {
                column[i] = values[i] == null ? Double.NaN : values[i];
                any |= values[i] != null;
            }
            if (any) {
                series.put(name, column);
            }
        });
        return series;
    }

    /** The client's own cost per second of the time series, as named columns; none when not recorded. */
    static Map<String, Double[]> clientColumns(ClientCost client) {
        Map<String, Double[]> columns = new LinkedHashMap<>();
        if (client == null) {
            return columns;
        }
        int seconds = client.perSecond().size();
        Map<String, Function<ClientCost.Second, Double>> signals = new LinkedHashMap<>();
        signals.put("client_loop_lag_p99_ms", ClientCost.Second::loopLagP99Ms);
        signals.put("client_loop_lag_max_ms", ClientCost.Second::loopLagMaxMs);
        signals.put("client_cpu_cores", ClientCost.Second::cpuCores);
        signals.put("client_gc_pause_ms", s -> (double) s.gcPauseMs());
        signals.forEach((name, signal) -> {
            Double[] column = new Double[seconds];
            for (ClientCost.Second row : client.perSecond()) {
                column[row.second()] = signal.apply(row);
            }
            columns.put(name, column);
        });
        return columns;
    }

    /** The telemetry's per-second rows as named columns aligned with the client's seconds. */
    static Map<String, Double[]> telemetryColumns(TelemetrySummary telemetry) {
        Map<String, Double[]> columns = new LinkedHashMap<>();
        if (telemetry == null || telemetry.perSecond().isEmpty()) {
            return columns;
        }
        int seconds = telemetry.perSecond().stream().mapToInt(TelemetrySummary.SecondRow::second).max().orElse(-1) + 1;
        Map<String, Function<TelemetrySummary.SecondRow, Double>> signals = new LinkedHashMap<>();
        signals.put("kv_cache_usage", TelemetrySummary.SecondRow::kvCacheUsage);
        signals.put("server_requests_running", TelemetrySummary.SecondRow::requestsRunning);
        signals.put("server_requests_waiting", TelemetrySummary.SecondRow::requestsWaiting);
        signals.put("gpu_util", TelemetrySummary.SecondRow::gpuUtil);
        signals.put("gpu_mem_used_gib", TelemetrySummary.SecondRow::gpuMemUsedGib);
        signals.forEach((name, signal) -> {
            Double[] column = new Double[seconds];
            for (TelemetrySummary.SecondRow row : telemetry.perSecond()) {
                column[row.second()] = signal.apply(row);
            }
            columns.put(name, column);
        });
        return columns;
    }

    public static void writeAtomically(Path file, String content) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        // getBytes replaces what UTF-8 cannot encode, where writeString would throw: no content can
        // cost a run its report.
        try {
            Files.write(temporary, content.getBytes(StandardCharsets.UTF_8));
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // A write cut short (a full disk) leaves no half file behind: the file is whole or absent.
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }
}
