package dev.llmload.twin.fit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Fits the {@code linear} step-time model to the client-visible steps ({@link StepRows}):
 * weighted least squares, one pass that drops outlying gaps (a stalled client or host), and a
 * bootstrap over requests for the uncertainty. Pure; seeded, so a fit repeats exactly.
 *
 * @param estimates    one per coefficient, in the model's order
 * @param residualRmsMs per run: root mean square of the kept rows' residuals, ms
 * @param rowsPerRun   per run: gaps kept
 * @param dropped      gaps dropped as outliers
 * @param ranges       per coefficient: per run, the spread of its regressor (max − min over the
 *                     run's rows), what tells which runs constrained it
 * @param medianGapMs  per run: the median inter-token gap, a typical step; NaN without gaps
 * @param maxNumBatchedTokens the engine's per-step token budget the fit assumed
 * @param cutPrefills  per run: prompts whose prefill the budget split over several steps
 * @param unexplainedSteps per run: steps whose first tokens needed more prefill than the budget
 *                     left them, a sign that the assumed budget is too small
 */
public record StepTimeFit(
        List<Estimate> estimates,
        double[] residualRmsMs,
        int[] rowsPerRun,
        int dropped,
        double[][] ranges,
        double[] medianGapMs,
        int maxNumBatchedTokens,
        int[] cutPrefills,
        int[] unexplainedSteps) {

    /** The {@code linear} profile's coefficients, in the order of {@link StepRows}' columns. */
    public static final List<String> NAMES = List.of(
            "step_ms",
            "per_sequence_ms",
            "context_ms_per_1k_tokens",
            "prefill_ms_per_token",
            "prefill_ms_per_token_sq");

    /** A parameter is identified when its 95% interval is within this share of its value either way. */
    public static final double IDENTIFIED_HALF_WIDTH = 0.1;

    static final int BOOTSTRAP_REPLICATES = 200;

    /** Gaps further than this many robust standard deviations from the fit are dropped. */
    static final double OUTLIER_SIGMAS = 5;

    /**
     * The robust standard deviation is taken as at least this, ms: a microsecond, finer than any
     * clock a client stamps tokens with, so that gaps timed exactly (in virtual time, to the
     * nanosecond) are not dropped for their rounding.
     */
    static final double MIN_ROBUST_SIGMA_MS = 1e-3;

    /** Fits after the first, each judging every gap against the one before. */
    static final int TRIM_PASSES = 3;

    /** Columns dropped, in this order, when the rest cannot be told apart: the finest effect first. */
    private static final int[] DROP_ORDER = {4, 2, 1, 3};

    /**
     * Fits every run's steps together; needs at least one run with gaps. The engine computes at most
     * {@code maxNumBatchedTokens} tokens per step, decodes first, and prefills longer prompts in
     * chunks ({@link PrefillChunks}).
     */
    public static StepTimeFit fit(List<List<RequestTimeline>> runs, int maxNumBatchedTokens, long seed) {
        if (maxNumBatchedTokens < 1) {
            throw new IllegalArgumentException("the step budget must be at least 1 token, was " + maxNumBatchedTokens);
        }
        StepRows all = StepRows.of(runs, maxNumBatchedTokens);
        if (all.rows() < StepRows.COLUMNS * 4) {
            throw new IllegalArgumentException("too few inter-token gaps to fit step times: " + all.rows()
                    + " (the runs need streamed requests of several tokens each)");
        }
        boolean[] used = new boolean[StepRows.COLUMNS];
        Arrays.fill(used, true);
        String[] whyNot = new String[StepRows.COLUMNS];
        int[] everyRow = range(all.rows());
        for (int c = 1; c < StepRows.COLUMNS; c++) {
            if (spread(all, c, everyRow) == 0) {
                used[c] = false;
                whyNot[c] = "not identified: every step the runs saw had the same " + regressor(c);
            }
        }
        double[] beta = solveDropping(all, used, whyNot, everyRow);
        // Outlier removal: a client or host stall shows up as one huge gap (and a burst of tiny ones
        // as the engine catches up). Repeated, with every row judged against the latest fit, so that
        // a step of a rare shape (a long prefill) that the first, contaminated fit missed comes back.
        int[] keptRows = everyRow;
        for (int pass = 0; pass < TRIM_PASSES; pass++) {
            double[] keptResiduals = residuals(all, beta, keptRows);
            double[] abs = Arrays.stream(keptResiduals).map(Math::abs).sorted().toArray();
            double robustSigma = Math.max(MIN_ROBUST_SIGMA_MS, 1.4826 * abs[abs.length / 2]);
            double[] residuals = residuals(all, beta, everyRow);
            List<Integer> kept = new ArrayList<>();
            for (int i = 0; i < residuals.length; i++) {
                if (Math.abs(residuals[i]) <= OUTLIER_SIGMAS * robustSigma) {
                    kept.add(i);
                }
            }
            keptRows = kept.stream().mapToInt(Integer::intValue).toArray();
            beta = solveDropping(all, used, whyNot, keptRows);
        }

        double[][] replicates = bootstrap(all, used, keptRows, seed);
        List<Estimate> estimates = new ArrayList<>();
        for (int c = 0; c < StepRows.COLUMNS; c++) {
            if (!used[c]) {
                estimates.add(new Estimate(NAMES.get(c), 0, Double.NaN, Double.NaN, Double.NaN, false, whyNot[c]));
                continue;
            }
            double[] values = replicates[c];
            double se = standardDeviation(values);
            Arrays.sort(values);
            double low = values.length == 0 ? Double.NaN : values[(int) Math.floor(0.025 * (values.length - 1))];
            double high = values.length == 0 ? Double.NaN : values[(int) Math.ceil(0.975 * (values.length - 1))];
            Estimate e = new Estimate(NAMES.get(c), beta[c], se, low, high, true, "");
            boolean identified = e.relativeHalfWidth() <= IDENTIFIED_HALF_WIDTH;
            String why = identified
                    ? "from " + keptRows.length + " inter-token gaps"
                    : String.format(
                            Locale.ROOT,
                            "not identified: its 95%% interval [%.4g, %.4g] is wider than ±%.0f%% of the value; "
                                    + "runs with more varied %s would pin it down",
                            low,
                            high,
                            100 * IDENTIFIED_HALF_WIDTH,
                            regressor(c));
            estimates.add(new Estimate(NAMES.get(c), beta[c], se, low, high, identified, why));
        }
        int runs2 = runs.size();
        double[] sumSq = new double[runs2];
        int[] counts = new int[runs2];
        double[] finalResiduals = residuals(all, beta, keptRows);
        for (int k = 0; k < keptRows.length; k++) {
            int run = all.run()[keptRows[k]];
            sumSq[run] += finalResiduals[k] * finalResiduals[k];
            counts[run]++;
        }
        double[] rms = new double[runs2];
        double[][] ranges = new double[StepRows.COLUMNS][runs2];
        for (int r = 0; r < runs2; r++) {
            rms[r] = counts[r] == 0 ? Double.NaN : Math.sqrt(sumSq[r] / counts[r]);
            int[] ofRun = rowsOfRun(all, keptRows, r);
            for (int c = 0; c < StepRows.COLUMNS; c++) {
                ranges[c][r] = ofRun.length == 0 ? 0 : spread(all, c, ofRun);
            }
        }
        return new StepTimeFit(
                estimates,
                rms,
                counts,
                all.rows() - keptRows.length,
                ranges,
                all.medianGapMs(),
                maxNumBatchedTokens,
                all.cutPrefills(),
                all.unexplainedSteps());
    }

    /** The fitted value of a coefficient, 0 when it was left out. */
    public double value(String name) {
        return estimates.get(NAMES.indexOf(name)).value();
    }

    /** What each column measures, for messages. */
    static String regressor(int column) {
        return switch (column) {
            case 0 -> "step";
            case 1 -> "batch size";
            case 2 -> "KV context";
            case 3 -> "prefill tokens per step";
            default -> "prompt length (prefill tokens squared)";
        };
    }

    private static double[] solveDropping(StepRows all, boolean[] used, String[] whyNot, int[] rows) {
        while (true) {
            double[] beta = solveUsed(all, used, rows);
            if (beta != null) {
                return beta;
            }
            int drop = -1;
            for (int c : DROP_ORDER) {
                if (used[c]) {
                    drop = c;
                    break;
                }
            }
            if (drop < 0) {
                throw new IllegalArgumentException(
                        "the runs' steps cannot be fitted: even a constant step time is " + "undetermined");
            }
            used[drop] = false;
            whyNot[drop] = "not identified: the runs' " + regressor(drop)
                    + " moved in step with the other terms, so its effect cannot be told apart (left at 0)";
        }
    }

    /** The full coefficient vector (0 for unused columns), or null when singular. */
    private static double[] solveUsed(StepRows all, boolean[] used, int[] rows) {
        return expand(LeastSquares.solve(reduce(all, used), all.y(), all.weights(), rows), used);
    }

    /** The design matrix with only the used columns. */
    private static double[][] reduce(StepRows all, boolean[] used) {
        int k = 0;
        for (boolean u : used) {
            k += u ? 1 : 0;
        }
        double[][] x = new double[all.rows()][];
        for (int i = 0; i < all.rows(); i++) {
            double[] row = new double[k];
            for (int c = 0, j = 0; c < StepRows.COLUMNS; c++) {
                if (used[c]) {
                    row[j++] = all.x()[i][c];
                }
            }
            x[i] = row;
        }
        return x;
    }

    private static double[] expand(double[] reduced, boolean[] used) {
        if (reduced == null) {
            return null;
        }
        double[] beta = new double[StepRows.COLUMNS];
        for (int c = 0, j = 0; c < StepRows.COLUMNS; c++) {
            if (used[c]) {
                beta[c] = reduced[j++];
            }
        }
        return beta;
    }

    /** Coefficient replicates, [column][replicate], from requests drawn with replacement. */
    private static double[][] bootstrap(StepRows all, boolean[] used, int[] keptRows, long seed) {
        List<List<Integer>> byCluster = new ArrayList<>();
        for (int c = 0; c < all.clusters(); c++) {
            byCluster.add(new ArrayList<>());
        }
        for (int r : keptRows) {
            byCluster.get(all.cluster()[r]).add(r);
        }
        byCluster.removeIf(List::isEmpty);
        SplittableRandom random = new SplittableRandom(seed);
        double[][] x = reduce(all, used);
        List<double[]> fits = new ArrayList<>();
        for (int b = 0; b < BOOTSTRAP_REPLICATES; b++) {
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < byCluster.size(); i++) {
                rows.addAll(byCluster.get(random.nextInt(byCluster.size())));
            }
            double[] beta = expand(
                    LeastSquares.solve(
                            x,
                            all.y(),
                            all.weights(),
                            rows.stream().mapToInt(Integer::intValue).toArray()),
                    used);
            if (beta != null) {
                fits.add(beta);
            }
        }
        double[][] byColumn = new double[StepRows.COLUMNS][fits.size()];
        for (int b = 0; b < fits.size(); b++) {
            for (int c = 0; c < StepRows.COLUMNS; c++) {
                byColumn[c][b] = fits.get(b)[c];
            }
        }
        return byColumn;
    }

    private static double[] residuals(StepRows all, double[] beta, int[] rows) {
        double[] res = new double[rows.length];
        for (int k = 0; k < rows.length; k++) {
            double[] x = all.x()[rows[k]];
            double predicted = 0;
            for (int c = 0; c < StepRows.COLUMNS; c++) {
                predicted += beta[c] * x[c];
            }
            res[k] = all.y()[rows[k]] - predicted;
        }
        return res;
    }

    private static double spread(StepRows all, int column, int[] rows) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int r : rows) {
            min = Math.min(min, all.x()[r][column]);
            max = Math.max(max, all.x()[r][column]);
        }
        return rows.length == 0 ? 0 : max - min;
    }

    private static int[] rowsOfRun(StepRows all, int[] rows, int run) {
        return Arrays.stream(rows).filter(r -> all.run()[r] == run).toArray();
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    private static double standardDeviation(double[] v) {
        if (v.length < 2) {
            return Double.NaN;
        }
        double mean = Arrays.stream(v).average().orElse(0);
        double ss = 0;
        for (double d : v) {
            ss += (d - mean) * (d - mean);
        }
        return Math.sqrt(ss / (v.length - 1));
    }
}
