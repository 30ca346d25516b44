package dev.llmload.report;

import dev.llmload.metrics.RequestMetrics;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import java.util.List;

/**
 * The requests as columns, one element per request, from which the page computes its per-second
 * series, histograms and scatter plot. Times in seconds from the run's start; latencies in
 * milliseconds, null for a failed request or where the metric is undefined; values rounded to
 * what a chart can show, to keep the page small.
 */
record RequestColumns(
        double[] sentS,
        double[] endS,
        Double[] ttftMs,
        Double[] e2eMs,
        Double[] tpotMs,
        int[] inputTokens,
        int[] outputTokens,
        boolean[] succeeded,
        boolean[] warmup) {

    static RequestColumns of(List<RequestRecord> records) {
        int n = records.size();
        RequestColumns columns = new RequestColumns(new double[n], new double[n], new Double[n], new Double[n],
                new Double[n], new int[n], new int[n], new boolean[n], new boolean[n]);
        for (int i = 0; i < n; i++) {
            RequestRecord record = records.get(i);
            columns.sentS[i] = seconds(record.timings().sentNanos());
            columns.endS[i] = seconds(record.timings().endNanos());
            if (record.succeeded()) {
                RequestMetrics metrics = RequestMetrics.of(record);
                columns.ttftMs[i] = roundMs(metrics.ttftMs());
                columns.e2eMs[i] = roundMs(metrics.e2eMs());
                columns.tpotMs[i] = roundMs(metrics.tpotMs());
            }
            columns.inputTokens[i] = record.inputTokens();
            columns.outputTokens[i] = record.outputTokens();
            columns.succeeded[i] = record.succeeded();
            columns.warmup[i] = record.warmup();
        }
        return columns;
    }

    /** -1 (never) stays -1, which the page leaves out; rounding would make it 0. */
    private static double seconds(long nanos) {
        return nanos < 0 ? RequestTimings.NEVER : round(nanos / 1e9, 1e4);
    }

    private static Double roundMs(Double ms) {
        return ms == null ? null : round(ms, 1e3);
    }

    private static double round(double value, double scale) {
        return Math.round(value * scale) / scale;
    }
}
