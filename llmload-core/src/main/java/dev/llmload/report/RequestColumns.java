package dev.llmload.report;

import dev.llmload.metrics.RequestMetrics;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import java.util.List;

/**
 * The requests as columns, one element per request, from which the page computes its per-second
 * series, histograms and scatter plot. Times in seconds from the run's start; latencies in
 * milliseconds, null for a failed request or where the metric is undefined; values rounded to
 * what a chart can show, to keep the page small. A run of more than {@link #MAX_SHOWN} requests
 * shows every {@code every}-th of them (in record order), so the page stays a few megabytes
 * whatever the run's size; the page counts each shown request {@code every} times. The report's
 * own figures never come from these columns.
 *
 * @param queueMs client queue time ({@link RequestMetrics#clientQueueMs}) of every request, failed ones too
 * @param every   how many requests each shown one stands for: 1 when all are shown
 */
record RequestColumns(
        double[] sentS,
        double[] endS,
        Double[] ttftMs,
        Double[] e2eMs,
        Double[] tpotMs,
        double[] queueMs,
        int[] inputTokens,
        int[] outputTokens,
        boolean[] succeeded,
        boolean[] warmup,
        int every) {

    /** The most requests a page shows one by one (about 60 bytes each in the page). */
    static final int MAX_SHOWN = 50_000;

    static RequestColumns of(List<RequestRecord> records) {
        Builder builder = new Builder(records.size());
        records.forEach(builder::add);
        return builder.build();
    }

    /**
     * The columns taken as the records stream past, every {@code every}-th of them from the first:
     * at most {@link #MAX_SHOWN} requests, whatever the run's size. Owned by one thread.
     */
    static final class Builder {

        private final RequestColumns columns;
        private long position;
        private int shown;

        /** @param total how many records will be added */
        Builder(long total) {
            int every = (int) Math.max(1, (total + MAX_SHOWN - 1) / MAX_SHOWN);
            int n = (int) ((total + every - 1) / every);
            columns = new RequestColumns(
                    new double[n],
                    new double[n],
                    new Double[n],
                    new Double[n],
                    new Double[n],
                    new double[n],
                    new int[n],
                    new int[n],
                    new boolean[n],
                    new boolean[n],
                    every);
        }

        void add(RequestRecord record) {
            if (position++ % columns.every() != 0) {
                return;
            }
            int i = shown++;
            columns.sentS[i] = seconds(record.timings().sentNanos());
            columns.endS[i] = seconds(record.timings().endNanos());
            RequestMetrics metrics = RequestMetrics.of(record);
            columns.queueMs[i] = roundMs(metrics.clientQueueMs());
            if (record.succeeded()) {
                columns.ttftMs[i] = roundMs(metrics.ttftMs());
                columns.e2eMs[i] = roundMs(metrics.e2eMs());
                columns.tpotMs[i] = roundMs(metrics.tpotMs());
            }
            columns.inputTokens[i] = record.inputTokens();
            columns.outputTokens[i] = record.outputTokens();
            columns.succeeded[i] = record.succeeded();
            columns.warmup[i] = record.warmup();
        }

        RequestColumns build() {
            return columns;
        }
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
