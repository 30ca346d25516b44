package dev.llmload.report.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.llmload.metrics.RunResults;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.Measurements;
import dev.llmload.report.PercentileSpectrum;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunPage;
import dev.llmload.report.RunReport;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code report.html}: one self-contained page (uPlot and the data inlined, nothing fetched when
 * opened) for a run, a sweep of runs, or a comparison of runs. Java only gathers the data and
 * fills the page template; {@code report.js} draws the charts and tables, showing every string
 * from the server or the user as text, never as markup.
 *
 * <p>Stateless; safe to call from any thread.
 */
public final class HtmlReport {

    /** The file name in a run directory. */
    public static final String FILE_NAME = "report.html";

    private HtmlReport() {}

    /** The page of one run from records with their token events, without server telemetry. */
    public static String forRun(RunReport report, List<RequestRecord> records) {
        return forRun(report, records, Map.of());
    }

    /** The page of one run from records with their token events. */
    public static String forRun(RunReport report, List<RequestRecord> records, Map<String, double[]> telemetry) {
        return forRun(report, RunPage.of(records), telemetry);
    }

    /**
     * The page of one run.
     *
     * @param page      its requests as the derivation took them ({@link Measurements#page})
     * @param telemetry per-second server series (e.g. KV cache use, requests waiting, GPU
     *                  utilisation), element i covering second i from the run's start; NaN where
     *                  no sample was taken. Empty: the telemetry chart is left out.
     */
    public static String forRun(RunReport report, RunPage page, Map<String, double[]> telemetry) {
        Map<String, Object> data = page("run");
        data.put("report", report);
        data.put("requests", page.requests());
        data.put("spectra", page.spectra());
        data.put("telemetry", telemetryColumns(telemetry));
        return render(data);
    }

    /** Latency percentiles against achieved throughput over the runs of a sweep, in the order given. */
    public static String forSweep(List<LabeledRun> runs, SweepMarkers markers) {
        Map<String, Object> data = page("sweep");
        data.put(
                "runs",
                runs.stream()
                        .map(run -> Map.of("label", run.label(), "report", run.report()))
                        .toList());
        data.put("markers", markers == null ? SweepMarkers.NONE : markers);
        return render(data);
    }

    /** Several runs side by side: their latency spectra overlaid and their summaries in one table. */
    public static String forComparison(List<LabeledRun> runs) {
        return forComparison(runs, null);
    }

    /**
     * Several runs side by side, with what {@code llmload compare} found.
     *
     * @param comparison comparison.json's content (its pairs' differences with their intervals and
     *                   significance, the thresholds and the regressions), or null for none
     */
    public static String forComparison(List<LabeledRun> runs, JsonNode comparison) {
        Map<String, Object> data = page("comparison");
        data.put("comparison", comparison);
        data.put(
                "runs",
                runs.stream()
                        .map(run -> Map.of(
                                "label", run.label(),
                                "report", run.report(),
                                "spectra",
                                        run.records().isEmpty()
                                                ? spectra(run.report().results())
                                                : RunPage.of(run.records()).spectra()))
                        .toList());
        return render(data);
    }

    private static Map<String, Object> page(String kind) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("kind", kind);
        return data;
    }

    private static String render(Map<String, Object> data) {
        try {
            return PageTemplate.fill(ReportFiles.JSON
                    .writer()
                    .without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(data));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, PercentileSpectrum> spectra(RunResults results) {
        return Map.of(
                "ttft_ms", PercentileSpectrum.of(results.ttftMs()),
                "itl_ms", PercentileSpectrum.of(results.itlMs()),
                "tpot_ms", PercentileSpectrum.of(results.tpotMs()),
                "e2e_latency_ms", PercentileSpectrum.of(results.e2eLatencyMs()));
    }

    /** JSON has no NaN: gaps become null. */
    private static Map<String, Double[]> telemetryColumns(Map<String, double[]> telemetry) {
        Map<String, Double[]> columns = new LinkedHashMap<>();
        if (telemetry != null) {
            telemetry.forEach((name, series) -> {
                Double[] column = new Double[series.length];
                for (int i = 0; i < series.length; i++) {
                    column[i] = Double.isFinite(series[i]) ? series[i] : null;
                }
                columns.put(name, column);
            });
        }
        return columns;
    }
}
