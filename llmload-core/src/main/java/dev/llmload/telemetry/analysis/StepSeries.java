package dev.llmload.telemetry.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * A gauge read at scrape times, taken to hold its value until the next reading (the last
 * reading at or before the window's start carries into it). Pure.
 */
final class StepSeries {

    private final long[] times;
    private final double[] values;

    private StepSeries(long[] times, double[] values) {
        this.times = times;
        this.values = values;
    }

    /** Readings in ascending time; {@code null} and {@code NaN} values are left out. */
    static StepSeries of(List<Long> times, List<Double> values) {
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            if (values.get(i) != null && !values.get(i).isNaN()) {
                kept.add(i);
            }
        }
        long[] t = new long[kept.size()];
        double[] v = new double[kept.size()];
        for (int j = 0; j < kept.size(); j++) {
            t[j] = times.get(kept.get(j));
            v[j] = values.get(kept.get(j));
        }
        return new StepSeries(t, v);
    }

    /** Time-weighted mean over [from, to], or {@code null} if no reading covers any of it. */
    Double mean(long from, long to) {
        double weighted = 0;
        long covered = 0;
        for (int i = 0; i < times.length; i++) {
            long start = Math.max(times[i], from);
            long end = Math.min(i + 1 < times.length ? times[i + 1] : Long.MAX_VALUE, to);
            if (end > start) {
                weighted += values[i] * (end - start);
                covered += end - start;
            }
        }
        return covered > 0 ? weighted / covered : null;
    }

    /** Highest value held during [from, to], or {@code null}. */
    Double max(long from, long to) {
        Double max = null;
        for (int i = 0; i < times.length; i++) {
            long end = i + 1 < times.length ? times[i + 1] : Long.MAX_VALUE;
            if (end > from && times[i] <= to && (max == null || values[i] > max)) {
                max = values[i];
            }
        }
        return max;
    }

    /** The last reading taken in [from, to), or {@code null}. */
    Double lastIn(long from, long to) {
        Double last = null;
        for (int i = 0; i < times.length && times[i] < to; i++) {
            if (times[i] >= from) {
                last = values[i];
            }
        }
        return last;
    }
}
