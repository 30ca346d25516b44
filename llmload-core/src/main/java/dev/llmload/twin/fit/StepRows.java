package dev.llmload.twin.fit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The engine steps a client can see, one row per inter-token gap of a decoding request: the gap
 * is the duration of the step that produced the later token, and the step's shape is read off the
 * other requests' timelines at the same moments (derivation in the package doc). Pure.
 *
 * @param x           per row: 1, batch size, context tokens / 1000, prefill tokens P, P²
 * @param y           per row: the gap in ms
 * @param weights     per row: 1 / decoding requests in the step, so every step weighs the same
 *                    however many requests saw it
 * @param cluster     per row: the request (numbered across runs) whose gap it is, what the
 *                    bootstrap resamples
 * @param run         per row: the run it came from
 * @param clusters    how many requests there are across the runs
 * @param medianGapMs per run: the median gap, ms (a typical step); NaN for a run without gaps
 */
record StepRows(
        double[][] x, double[] y, double[] weights, int[] cluster, int[] run, int clusters, double[] medianGapMs) {

    static final int COLUMNS = 5;

    /** A request's first token arriving within this share of a gap of the gap's end came out of the same step. */
    static final double SAME_STEP_SHARE = 0.3;

    /** The rows of every run's requests; requests of different runs never share a step. */
    static StepRows of(List<List<RequestTimeline>> runs) {
        List<double[]> xs = new ArrayList<>();
        List<double[]> ys = new ArrayList<>(); // {y, weight, cluster, run}
        int clusterBase = 0;
        double[] medians = new double[runs.size()];
        for (int ri = 0; ri < runs.size(); ri++) {
            List<RequestTimeline> reqs = new ArrayList<>(runs.get(ri));
            reqs.sort(Comparator.comparingLong(RequestTimeline::firstTokenNanos));
            List<Double> gaps = new ArrayList<>();
            for (int r = 0; r < reqs.size(); r++) {
                RequestTimeline req = reqs.get(r);
                for (int e = 1; e < req.tokenNanos().length; e++) {
                    if (req.tokensAt(e) != 1) {
                        continue; // coalesced events span several steps
                    }
                    long t0 = req.tokenNanos()[e - 1];
                    long t1 = req.tokenNanos()[e];
                    if (t1 <= t0) {
                        continue;
                    }
                    double[] row = shape(reqs, t0, t1);
                    double gapMs = (t1 - t0) / 1e6;
                    gaps.add(gapMs);
                    xs.add(Arrays.copyOf(row, COLUMNS));
                    ys.add(new double[] {gapMs, 1 / row[COLUMNS], clusterBase + r, ri});
                }
            }
            medians[ri] = median(gaps);
            clusterBase += reqs.size();
        }
        int n = xs.size();
        double[][] x = xs.toArray(new double[0][]);
        double[] y = new double[n];
        double[] w = new double[n];
        int[] cluster = new int[n];
        int[] run = new int[n];
        for (int i = 0; i < n; i++) {
            double[] v = ys.get(i);
            y[i] = v[0];
            w[i] = v[1];
            cluster[i] = (int) v[2];
            run[i] = (int) v[3];
        }
        return new StepRows(x, y, w, cluster, run, clusterBase, medians);
    }

    /**
     * The shape of the step that ran over (t0, t1]: {1, batch, context/1000, P, P², decoders}.
     * A request decoded in it when its first token came by t0 (within the tolerance) and its last
     * not before t1; it was prefilled in it when its first token came at t1.
     */
    static double[] shape(List<RequestTimeline> byFirstToken, long t0, long t1) {
        long tolerance = (long) (SAME_STEP_SHARE * (t1 - t0));
        int decoders = 0;
        int prefillers = 0;
        long context = 0;
        long prefill = 0;
        for (RequestTimeline j : byFirstToken) {
            long first = j.firstTokenNanos();
            if (first > t1 + tolerance) {
                break;
            }
            if (j.lastTokenNanos() < t1 - tolerance) {
                continue;
            }
            if (first <= t0 + tolerance) {
                decoders++;
                context += j.inputTokens() + j.tokensBy(t0 + tolerance);
            } else {
                prefillers++;
                prefill += j.inputTokens();
                context += j.inputTokens();
            }
        }
        double p = prefill;
        return new double[] {1, decoders + prefillers, context / 1000.0, p, p * p, Math.max(1, decoders)};
    }

    int rows() {
        return y.length;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
