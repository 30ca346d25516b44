package dev.llmload.analysis;

import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.Slo;
import dev.llmload.record.RequestRecord;
import java.util.Comparator;
import java.util.List;

/**
 * The part of a run in which the system was in steady state ({@code steady_state} in
 * {@code report.json}), and the headline results of that part alone, beside the whole run's. A
 * run's first requests meet an idle server (or a cold one), its last ones a draining one; a run
 * too short for its load never leaves the first phase. Pure arithmetic on the records.
 *
 * <p>The rule is MSER-5 (White, 1997), the marginal standard error rule used to cut the
 * warm-up from simulation output: the latency of each measured request from its intended send to
 * its end, in order of intended send, averaged in batches of {@link #BATCH}; the window starts
 * after the first d batches, for the d that minimises the squared standard error of the mean of
 * the batches left, {@code Σ (b − mean)² / (m − d)²}. A start latency that falls or rises until
 * a plateau is cut off; noise on a plateau is not, since cutting it makes fewer batches, which
 * costs more than it saves. Differences between batch means below a resolution ({@link
 * #RESOLUTION_MS} or {@link #RELATIVE_RESOLUTION} of the typical latency) count as no spread, so
 * a plateau with next to no noise is not cut further for them. The window ends at the last arrival. d is searched over the first half
 * of the batches; when the best d is the last of that half the latencies were still trending
 * halfway through: the run never reached a steady state.
 *
 * @param reached     the window exists: the cut lies before the middle of the run
 * @param startS      the window's start, seconds from the first intended send of the measured
 *                    phase (the intended send of its first request); null when not reached
 * @param endS        the last arrival, in the same seconds
 * @param requests    measured requests intended within the window; 0 when not reached
 * @param cut         measured requests before it (in order of intended send)
 * @param neededRequests when not reached: at least this many requests would be needed: twice the
 *                    start of the plateau MSER finds over the whole run, or twice the run when it
 *                    finds none (a saturated run needs a lower load, not more requests); null otherwise
 * @param neededS     the same in seconds of arrivals at the run's rate; null when not reached or unknown
 * @param results     the results of the requests in the window alone; null when not reached
 */
public record SteadyState(boolean reached, Double startS, double endS, long requests, long cut, Long neededRequests,
                          Double neededS, RunResults results) {

    /** Requests per batch, the 5 of MSER-5. */
    static final int BATCH = 5;
    /**
     * Batch means closer than this, or than {@link #RELATIVE_RESOLUTION} of the typical batch mean
     * of the second half, are the same: a plateau with next to no noise is not cut further for
     * differences a reader would not call a trend.
     */
    static final double RESOLUTION_MS = 1;
    static final double RELATIVE_RESOLUTION = 0.02;
    /** Fewer batches than this are too few to tell a trend from noise: no verdict. */
    static final int MIN_BATCHES = 10;

    /** @return null with fewer than {@link #MIN_BATCHES} batches of measured requests */
    public static SteadyState of(List<RequestRecord> all, Slo slo) {
        return of(all, slo, dev.llmload.metrics.InterTokenGaps::of);
    }

    /**
     * @param all    the records, which may be without their token gaps
     * @param gapsOf the inter-token gaps of the window's requests, from their full records
     */
    public static SteadyState of(List<RequestRecord> all, Slo slo,
                                 java.util.function.Function<List<RequestRecord>, dev.llmload.metrics.InterTokenGaps> gapsOf) {
        Cut cut = cut(all);
        return cut == null ? null : cut.steadyState(slo, gapsOf);
    }

    /**
     * Where MSER-5 cuts the measured requests: the first half of {@link #of}, so that the window's
     * requests are known before their token events are streamed past (one pass for every
     * inter-token statistic of a big run).
     *
     * @return null with fewer than {@link #MIN_BATCHES} batches of measured requests
     */
    public static Cut cut(List<RequestRecord> all) {
        List<RequestRecord> measured = all.stream().filter(r -> !r.warmup())
                .sorted(Comparator.comparingLong(r -> r.timings().intendedSendNanos())).toList();
        int batches = measured.size() / BATCH;
        if (batches < MIN_BATCHES) {
            return null;
        }
        double[] means = new double[batches];
        for (int j = 0; j < batches; j++) {
            double sum = 0;
            for (int i = j * BATCH; i < (j + 1) * BATCH; i++) {
                sum += measured.get(i).timings().endNanos() - measured.get(i).timings().intendedSendNanos();
            }
            means[j] = sum / BATCH / 1e6;
        }
        // Searched over the first half only: the last few batches may have a small spread by chance.
        double[] mser = mser(means);
        return new Cut(measured, batches, mser, best(mser, batches / 2));
    }

    /**
     * The measured requests in order of intended send and the batches MSER-5 cuts from them.
     *
     * @param measured   the measured requests in order of intended send
     * @param cutBatches the batches cut; the window was not reached when they are half of all
     */
    public record Cut(List<RequestRecord> measured, int batches, double[] mser, int cutBatches) {

        /** The requests of the window, in order of intended send; null when it was not reached. */
        public List<RequestRecord> window() {
            return cutBatches == batches / 2 ? null : measured.subList(cutBatches * BATCH, measured.size());
        }

        /** @param gapsOf the inter-token gaps of the window's requests, from their full records */
        public SteadyState steadyState(Slo slo,
                                       java.util.function.Function<List<RequestRecord>, dev.llmload.metrics.InterTokenGaps> gapsOf) {
            long origin = measured.getFirst().timings().intendedSendNanos();
            long lastArrival = measured.getLast().timings().intendedSendNanos();
            double endS = (lastArrival - origin) / 1e9;
            int cut = cutBatches * BATCH;
            List<RequestRecord> window = window();
            if (window == null) {
                // Still falling at the middle: where would the plateau start, over the whole run?
                int plateau = best(mser, batches - 3);
                long needed = plateau >= batches - 3 ? 2L * measured.size() : 2L * plateau * BATCH;
                Double rate = endS > 0 ? (measured.size() - 1) / endS : null;
                return new SteadyState(false, null, endS, 0, cut, needed, rate == null ? null : needed / rate, null);
            }
            double startS = (window.getFirst().timings().intendedSendNanos() - origin) / 1e9;
            return new SteadyState(true, startS, endS, window.size(), cut, null, null,
                    RunResults.compute(window, slo, gapsOf.apply(window)));
        }
    }

    /**
     * The MSER statistic of each d: the squared standard error of the mean of the batches left
     * after cutting the first d, {@code Σ (b − mean)² / (m − d)²}, with the spread of the batches
     * counted as at least the resolution per batch; O(m) by suffix sums.
     */
    static double[] mser(double[] means) {
        int m = means.length;
        double[] secondHalf = java.util.Arrays.copyOfRange(means, m / 2, m);
        java.util.Arrays.sort(secondHalf);
        double resolution = Math.max(RESOLUTION_MS, RELATIVE_RESOLUTION * secondHalf[secondHalf.length / 2]);
        double floor = resolution * resolution;
        double sum = 0;
        double squares = 0;
        double[] value = new double[m];
        for (int d = m - 1; d >= 0; d--) {
            sum += means[d];
            squares += means[d] * means[d];
            int left = m - d;
            value[d] = Math.max(floor * left, squares - sum * sum / left) / ((double) left * left);
        }
        return value;
    }

    /** The d in [0, {@code last}] with the least statistic (the first of equals). */
    static int best(double[] mser, int last) {
        int best = 0;
        for (int d = 1; d <= last; d++) {
            if (mser[d] < mser[best]) {
                best = d;
            }
        }
        return best;
    }
}
