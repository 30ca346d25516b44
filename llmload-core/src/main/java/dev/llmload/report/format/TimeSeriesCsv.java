package dev.llmload.report.format;

import dev.llmload.analysis.TimeSeries;
import dev.llmload.record.FailureClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code timeseries.csv}: a header and one row per second of {@link TimeSeries}, followed by any
 * extra columns (e.g. server telemetry resampled to the same seconds). Absent values are empty
 * cells, never 0. The error columns are fixed (one per failure class) so files of different runs
 * share a header.
 */
public final class TimeSeriesCsv {

    public static final String FILE_NAME = "timeseries.csv";

    private TimeSeriesCsv() {}

    /** The file without extra columns. */
    public static String format(TimeSeries series) {
        return format(series, Map.of());
    }

    /**
     * @param extra named columns in the order to write them (use a {@code LinkedHashMap}); element
     *              k belongs to second k; a null element, or a second past the array's end, is an
     *              empty cell
     */
    public static String format(TimeSeries series, Map<String, Double[]> extra) {
        List<String> header = new ArrayList<>(List.of(
                "second",
                "started",
                "finished",
                "in_flight_mean",
                "output_tokens_per_s",
                "ttft_p50_ms",
                "ttft_p99_ms",
                "itl_p50_ms",
                "itl_p99_ms"));
        for (FailureClass failureClass : FailureClass.values()) {
            header.add("errors_" + failureClass.key());
        }
        header.addAll(extra.keySet());

        StringBuilder out = new StringBuilder();
        appendRow(out, header);
        for (TimeSeries.Second row : series.seconds()) {
            List<String> cells = new ArrayList<>(header.size());
            cells.add(cell(row.second()));
            cells.add(cell(row.started()));
            cells.add(cell(row.finished()));
            cells.add(cell(row.inFlightMean()));
            cells.add(cell(row.outputTokensPerS()));
            cells.add(cell(row.ttftP50Ms()));
            cells.add(cell(row.ttftP99Ms()));
            cells.add(cell(row.itlP50Ms()));
            cells.add(cell(row.itlP99Ms()));
            for (FailureClass failureClass : FailureClass.values()) {
                cells.add(cell(row.errors().get(failureClass)));
            }
            for (Double[] column : extra.values()) {
                cells.add(cell(row.second() < column.length ? column[row.second()] : null));
            }
            appendRow(out, cells);
        }
        return out.toString();
    }

    private static void appendRow(StringBuilder out, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(quoted(cells.get(i)));
        }
        out.append('\n');
    }

    private static String cell(Object value) {
        return value == null ? "" : value.toString();
    }

    /** RFC 4180 quoting, needed only for extra column names chosen by callers. */
    private static String quoted(String text) {
        if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
            return "\"" + text.replace("\"", "\"\"") + "\"";
        }
        return text;
    }
}
