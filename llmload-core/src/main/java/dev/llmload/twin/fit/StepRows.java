package dev.llmload.twin.fit;

import java.util.ArrayList;
import java.util.Arrays;
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
 * @param cutPrefills per run: prompts whose prefill was cut at the step budget ({@link PrefillChunks})
 * @param unexplainedSteps per run: steps whose first tokens needed more prefill than the budget allowed
 */
record StepRows(
        double[][] x,
        double[] y,
        double[] weights,
        int[] cluster,
        int[] run,
        int clusters,
        double[] medianGapMs,
        int[] cutPrefills,
        int[] unexplainedSteps) {

    static final int COLUMNS = 5;

    /** Token events within this share of a run's median gap of a step's earliest came out of that step. */
    static final double SAME_STEP_SHARE = 0.3;

    /**
     * The rows of every run's requests; requests of different runs never share a step. Prompts
     * longer than what is left of {@code maxNumBatchedTokens} in a step are prefilled in chunks.
     */
    static StepRows of(List<List<RequestTimeline>> runs, int maxNumBatchedTokens) {
        int n = runs.size();
        double[] medians = new double[n];
        VisibleSteps[] steps = new VisibleSteps[n];
        int seatLimit = 0;
        for (int ri = 0; ri < n; ri++) {
            List<RequestTimeline> reqs = runs.get(ri);
            List<Double> gaps = new ArrayList<>();
            for (RequestTimeline req : reqs) {
                for (int e = 1; e < req.tokenNanos().length; e++) {
                    if (gapRow(req, e)) {
                        gaps.add((req.tokenNanos()[e] - req.tokenNanos()[e - 1]) / 1e6);
                    }
                }
            }
            medians[ri] = median(gaps);
            long tolerance = Double.isNaN(medians[ri]) ? 0 : (long) (SAME_STEP_SHARE * medians[ri] * 1e6);
            steps[ri] = VisibleSteps.of(reqs, tolerance);
            // One engine served every run: its seat limit is at least the largest batch any of them saw.
            seatLimit = Math.max(seatLimit, steps[ri].maxBatch());
        }
        List<double[]> xs = new ArrayList<>();
        List<double[]> ys = new ArrayList<>(); // {y, weight, cluster, run}
        int clusterBase = 0;
        int[] cut = new int[n];
        int[] unexplained = new int[n];
        for (int ri = 0; ri < n; ri++) {
            List<RequestTimeline> reqs = runs.get(ri);
            PrefillChunks chunks = PrefillChunks.of(reqs, steps[ri], maxNumBatchedTokens, seatLimit);
            cut[ri] = chunks.cutPrefills();
            unexplained[ri] = chunks.unexplainedSteps();
            double[][] shapes = shapes(steps[ri], chunks);
            for (int r = 0; r < reqs.size(); r++) {
                RequestTimeline req = reqs.get(r);
                for (int e = 1; e < req.tokenNanos().length; e++) {
                    if (!gapRow(req, e)) {
                        continue;
                    }
                    double[] shape = shapes[steps[ri].eventStep()[r][e]];
                    xs.add(Arrays.copyOf(shape, COLUMNS));
                    ys.add(new double[] {
                        (req.tokenNanos()[e] - req.tokenNanos()[e - 1]) / 1e6, 1 / shape[COLUMNS], clusterBase + r, ri
                    });
                }
            }
            clusterBase += reqs.size();
        }
        int rows = xs.size();
        double[][] x = xs.toArray(new double[0][]);
        double[] y = new double[rows];
        double[] w = new double[rows];
        int[] cluster = new int[rows];
        int[] run = new int[rows];
        for (int i = 0; i < rows; i++) {
            double[] v = ys.get(i);
            y[i] = v[0];
            w[i] = v[1];
            cluster[i] = (int) v[2];
            run[i] = (int) v[3];
        }
        return new StepRows(x, y, w, cluster, run, clusterBase, medians, cut, unexplained);
    }

    /**
     * Each step's shape: {1, batch, context/1000, P, P², decoders}. Its batch is the requests that
     * got a token in it and a prompt cut in it; its context what they read; P the prompt tokens
     * it computed ({@link PrefillChunks}).
     */
    static double[][] shapes(VisibleSteps steps, PrefillChunks chunks) {
        double[][] shapes = new double[steps.count()][];
        for (int s = 0; s < steps.count(); s++) {
            double p = chunks.prefillTokens()[s];
            shapes[s] = new double[] {
                1,
                steps.batch(s) + (chunks.cutIn(s) ? 1 : 0),
                (steps.context()[s] + chunks.cutContext()[s]) / 1000.0,
                p,
                p * p,
                Math.max(1, steps.decoders()[s])
            };
        }
        return shapes;
    }

    /** Whether the gap before event {@code e} is one step: an event of one token, after the one before. */
    private static boolean gapRow(RequestTimeline r, int e) {
        return r.tokensAt(e) == 1 && r.tokenNanos()[e] > r.tokenNanos()[e - 1];
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
