package dev.llmload.analysis;

import dev.llmload.metrics.InterTokenGaps;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.Slo;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TokenEventsView;
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
public record SteadyState(
        boolean reached,
        Double startS,
        double endS,
        long requests,
        long cut,
        Long neededRequests,
        Double neededS,
        RunResults results) {

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
        Cut cut = cut(RequestTimes.of(all));
        if (cut == null) {
            return null;
        }
        Window window = cut.window();
        RunResults.Accumulator results = new RunResults.Accumulator(slo);
        InterTokenGaps gaps = new InterTokenGaps();
        for (RequestRecord record : all) {
            if (window != null && window.contains(record)) {
                results.add(record);
                gaps.add(TokenEventsView.of(record));
            }
        }
        return cut.steadyState(results, gaps);
    }

    /**
     * Where MSER-5 cuts the measured requests of {@code times}, taken in order of intended send:
     * after the first pass, a {@link Window} picks the window's requests out of
     * the second.
     *
     * @return null with fewer than {@link #MIN_BATCHES} batches of measured requests
     */
    public static Cut cut(RequestTimes times) {
        int[] order = times.measuredByIntended();
        int n = order.length;
        int batches = n / BATCH;
        if (batches < MIN_BATCHES) {
            return null;
        }
        double[] means = new double[batches];
        for (int j = 0; j < batches; j++) {
            double sum = 0;
            for (int i = j * BATCH; i < (j + 1) * BATCH; i++) {
                sum += times.endNanos(order[i]) - times.intendedNanos(order[i]);
            }
            means[j] = sum / BATCH / 1e6;
        }
        // Searched over the first half only: the last few batches may have a small spread by chance.
        double[] mser = mser(means);
        int cutBatches = best(mser, batches / 2);
        int first = order[cutBatches * BATCH];
        return new Cut(
                n,
                batches,
                mser,
                cutBatches,
                times.intendedNanos(order[0]),
                times.intendedNanos(order[n - 1]),
                times.intendedNanos(first),
                first);
    }

    /**
     * The batches MSER-5 cuts from a run's measured requests, and where the window begins.
     *
     * @param measured           the measured requests
     * @param cutBatches         the batches cut; the window was not reached when they are half of all
     * @param originNanos        the first intended send
     * @param lastArrivalNanos   the last intended send
     * @param windowFirstNanos    the intended send of the window's first request
     * @param windowFirstPosition that request's place among all the records as added
     */
    public record Cut(
            int measured,
            int batches,
            double[] mser,
            int cutBatches,
            long originNanos,
            long lastArrivalNanos,
            long windowFirstNanos,
            int windowFirstPosition) {

        public boolean reached() {
            return cutBatches != batches / 2;
        }

        /** Tells the window's requests in the second pass; null when the window was not reached. */
        public Window window() {
            return reached() ? new Window(this) : null;
        }

        /**
         * @param windowResults the window's requests ({@link #window}) accumulated; unused when not reached
         * @param windowGaps    their inter-token gaps, from their full records
         */
        public SteadyState steadyState(RunResults.Accumulator windowResults, InterTokenGaps windowGaps) {
            double endS = (lastArrivalNanos - originNanos) / 1e9;
            int cut = cutBatches * BATCH;
            if (!reached()) {
                // Still falling at the middle: where would the plateau start, over the whole run?
                int plateau = best(mser, batches - 3);
                long needed = plateau >= batches - 3 ? 2L * measured : 2L * plateau * BATCH;
                Double rate = endS > 0 ? (measured - 1) / endS : null;
                return new SteadyState(false, null, endS, 0, cut, needed, rate == null ? null : needed / rate, null);
            }
            double startS = (windowFirstNanos - originNanos) / 1e9;
            return new SteadyState(
                    true, startS, endS, measured - cut, cut, null, null, windowResults.result(windowGaps));
        }
    }

    /**
     * Tells whether each record is in the window: the measured ones from the window's first in order
     * of intended send. Hand it every record, in the order they were added to the {@link RequestTimes}.
     * Owned by one thread.
     */
    public static final class Window {

        private final Cut cut;
        private int position;

        private Window(Cut cut) {
            this.cut = cut;
        }

        public boolean contains(RequestRecord record) {
            return contains(record.warmup(), record.timings().intendedSendNanos());
        }

        /** {@link #contains(RequestRecord)} of the next record, told by what decides it: {@link RequestTimes} has both. */
        public boolean contains(boolean warmup, long intendedSendNanos) {
            int at = position++;
            if (warmup) {
                return false;
            }
            return intendedSendNanos > cut.windowFirstNanos()
                    || intendedSendNanos == cut.windowFirstNanos() && at >= cut.windowFirstPosition();
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
