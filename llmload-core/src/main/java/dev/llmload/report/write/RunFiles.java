package dev.llmload.report.write;

import static dev.llmload.report.ReportFiles.writeAtomically;

import dev.llmload.client.ClientCost;
import dev.llmload.record.RecordSource;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.Measurements;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunPage;
import dev.llmload.report.RunReport;
import dev.llmload.report.format.SummaryCsv;
import dev.llmload.report.format.TimeSeriesCsv;
import dev.llmload.report.format.VllmExport;
import dev.llmload.report.html.HtmlReport;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes every report file of a run directory from its report, each through
 * {@link ReportFiles#writeAtomically}. It sits above the formats and the page it writes, so
 * {@code report} itself knows none of them.
 *
 * <p>Stateless; called on the thread that finishes the run or the command.
 */
public final class RunFiles {

    private RunFiles() {}

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
    public static void write(Path dir, RunReport report, RunPage page, RecordSource records) throws IOException {
        writeAtomically(dir.resolve(ReportFiles.REPORT_JSON), ReportFiles.JSON.writeValueAsString(report) + "\n");
        writeAtomically(
                dir.resolve(ReportFiles.SUMMARY_CSV), SummaryCsv.header() + "\n" + SummaryCsv.row(report) + "\n");
        Map<String, Double[]> extra = clientColumns(report.client());
        extra.putAll(telemetryColumns(report.telemetry()));
        writeAtomically(dir.resolve(TimeSeriesCsv.FILE_NAME), TimeSeriesCsv.format(report.timeseries(), extra));
        writeAtomically(
                dir.resolve(HtmlReport.FILE_NAME),
                HtmlReport.forRun(report, page, htmlTelemetry(telemetryColumns(report.telemetry()))));
        if (report.config() != null && report.config().output().exports().contains("vllm")) {
            List<RequestRecord> all = new ArrayList<>();
            records.forEach(all::add);
            writeAtomically(
                    dir.resolve(VllmExport.fileName(report)),
                    ReportFiles.JSON.writeValueAsString(VllmExport.toJson(report, all)) + "\n");
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
    private static Map<String, Double[]> clientColumns(ClientCost client) {
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
    private static Map<String, Double[]> telemetryColumns(TelemetrySummary telemetry) {
        Map<String, Double[]> columns = new LinkedHashMap<>();
        if (telemetry == null || telemetry.perSecond().isEmpty()) {
            return columns;
        }
        int seconds = telemetry.perSecond().stream()
                        .mapToInt(TelemetrySummary.SecondRow::second)
                        .max()
                        .orElse(-1)
                + 1;
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
}
