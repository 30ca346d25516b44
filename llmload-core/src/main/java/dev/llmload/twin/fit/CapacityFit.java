package dev.llmload.twin.fit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The engine's two capacity limits, from when requests were in the batch (first token to last)
 * and when they waited (sent, no token for longer than a step): the most running sequences, and
 * the KV cache size in blocks. Pure.
 */
public final class CapacityFit {

    /** The batch must sit at its peak while others wait for at least this many typical steps. */
    static final int QUEUED_AT_PEAK_STEPS = 20;

    /** The peak batch must have been held for this many typical steps in all ... */
    static final int PEAK_STEPS = 5;

    /** ... and for this share of the time the batch was not empty. */
    static final double PEAK_SHARE = 0.01;

    /** Seconds with a KV reading below this share carry too little signal for the ratio. */
    static final double MIN_KV_USAGE = 0.02;

    private CapacityFit() {}

    /**
     * @param maxNumSeqs   the most running sequences
     * @param numBlocks    the KV cache size in blocks
     * @param peakBatch    per run: the largest batch held for a while (5 typical steps and 1% of
     *                     the busy time, so that a late read of one token does not count)
     * @param queuedAtPeakMs per run: time the batch sat at its peak while requests waited, ms
     * @param peakBlocks   per run: the most KV blocks the batch held
     * @param kvSeconds    per run: seconds with a KV reading used for {@code numBlocks}
     */
    public record Result(
            Estimate maxNumSeqs,
            Estimate numBlocks,
            int[] peakBatch,
            double[] queuedAtPeakMs,
            long[] peakBlocks,
            int[] kvSeconds) {}

    /**
     * @param medianGapMs per run, a typical step (from {@link StepRows}); a request with no token
     *                    for 1.5 of these after its send is waiting, not prefilling
     * @param blockSize   tokens per KV block of the server (vLLM's default is 16)
     */
    public static Result fit(List<RunInput> runs, double[] medianGapMs, int blockSize) {
        int n = runs.size();
        int[] peak = new int[n];
        double[] queuedAtPeak = new double[n];
        long[] peakBlocks = new long[n];
        int[] kvSeconds = new int[n];
        double sumBu = 0;
        double sumUu = 0;
        List<double[]> pairs = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            RunInput run = runs.get(r);
            double stepMs = Double.isNaN(medianGapMs[r]) ? 1 : medianGapMs[r];
            long halfStep = (long) (stepMs * 0.5e6);
            long waitAfter = (long) (stepMs * 1.5e6);
            // Boundaries where the batch or the queue changes: a request enters the batch half a
            // step before its first token (its prefill step), leaves at its last token, waits from
            // its send until 1.5 steps before its first token.
            List<long[]> events = new ArrayList<>(); // {time, dBatch, dWaiting}
            for (RequestTimeline q : run.requests()) {
                events.add(new long[] {q.firstTokenNanos() - halfStep, 1, 0});
                events.add(new long[] {q.lastTokenNanos(), -1, 0});
                if (q.firstTokenNanos() - waitAfter > q.sentNanos()) {
                    events.add(new long[] {q.sentNanos(), 0, 1});
                    events.add(new long[] {q.firstTokenNanos() - waitAfter, 0, -1});
                }
            }
            // At one instant, arrivals before departures: the step holds both.
            events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
            // Time spent at each batch size, and at each size with requests waiting.
            long[] atSize = new long[run.requests().size() + 2];
            long[] waitingAtSize = new long[atSize.length];
            int batch = 0;
            int waiting = 0;
            for (int i = 0; i + 1 < events.size(); i++) {
                long[] e = events.get(i);
                batch += (int) e[1];
                waiting += (int) e[2];
                long span = events.get(i + 1)[0] - e[0];
                if (batch > 0) {
                    atSize[batch] += span;
                    if (waiting > 0) {
                        waitingAtSize[batch] += span;
                    }
                }
            }
            // The peak is the largest size the batch held for a while: a client that reads one
            // request's last token late counts it beside its successor for an instant.
            long busy = Arrays.stream(atSize).sum();
            long floor = Math.max((long) (PEAK_STEPS * stepMs * 1e6), (long) (PEAK_SHARE * busy));
            long atOrAbove = 0;
            long atPeakNanos = 0;
            for (int b = atSize.length - 1; b >= 1; b--) {
                atOrAbove += atSize[b];
                atPeakNanos += waitingAtSize[b];
                if (atOrAbove >= floor) {
                    peak[r] = b;
                    break;
                }
            }
            queuedAtPeak[r] = atPeakNanos / 1e6;
            peakBlocks[r] = peakBlocks(run.requests(), blockSize);
            long[] admitted = admissions(run.requests(), stepMs);
            for (int s = 0; s < run.kvUsage().size(); s++) {
                Double u = run.kvUsage().get(s);
                if (u == null || u < MIN_KV_USAGE) {
                    continue;
                }
                // The reading is the second's last: within one scrape interval of its end.
                long to = run.originNanos() + (s + 1) * 1_000_000_000L;
                double b = meanBlocks(run.requests(), admitted, to - run.scrapeIntervalNanos(), to, blockSize);
                sumBu += b * u;
                sumUu += u * u;
                pairs.add(new double[] {b, u});
                kvSeconds[r]++;
            }
        }
        return new Result(
                maxNumSeqs(runs, peak, queuedAtPeak, medianGapMs),
                numBlocks(runs, pairs, sumBu, sumUu, peakBlocks),
                peak,
                queuedAtPeak,
                peakBlocks,
                kvSeconds);
    }

    private static Estimate maxNumSeqs(List<RunInput> runs, int[] peak, double[] queuedAtPeak, double[] medianGapMs) {
        int best = Arrays.stream(peak).max().orElse(0);
        List<String> limited = new ArrayList<>();
        for (int r = 0; r < runs.size(); r++) {
            if (peak[r] == best
                    && !Double.isNaN(medianGapMs[r])
                    && queuedAtPeak[r] >= QUEUED_AT_PEAK_STEPS * medianGapMs[r]) {
                limited.add(runs.get(r).name());
            }
        }
        if (!limited.isEmpty()) {
            return new Estimate(
                    "maxNumSeqs",
                    best,
                    0,
                    best,
                    best,
                    true,
                    "the batch held at " + best + " while requests waited, in " + String.join(", ", limited));
        }
        return new Estimate(
                "maxNumSeqs",
                best,
                Double.NaN,
                best,
                Double.POSITIVE_INFINITY,
                false,
                "not identified: no run kept requests waiting while the batch was at its peak of " + best
                        + "; the limit is at least that (run a higher concurrency to reach it)");
    }

    private static Estimate numBlocks(
            List<RunInput> runs, List<double[]> pairs, double sumBu, double sumUu, long[] peakBlocks) {
        long mostSeen = Arrays.stream(peakBlocks).max().orElse(0);
        if (pairs.size() >= 3 && sumUu > 0) {
            // Blocks in use b = numBlocks · u, per second: least squares through the origin.
            double estimate = sumBu / sumUu;
            double ss = 0;
            for (double[] p : pairs) {
                double res = p[0] - estimate * p[1];
                ss += res * res;
            }
            double se = Math.sqrt(ss / (pairs.size() - 1) / sumUu);
            double low = estimate - 1.96 * se;
            double high = estimate + 1.96 * se;
            boolean identified = (high - low) / 2 <= StepTimeFit.IDENTIFIED_HALF_WIDTH * estimate;
            String why = String.format(
                    Locale.ROOT,
                    "from the server's KV cache use over %d seconds against the blocks the client's batch held",
                    pairs.size());
            return new Estimate(
                    "numBlocks",
                    estimate,
                    se,
                    low,
                    high,
                    identified,
                    identified ? why : "not identified: " + why + " scatter too widely");
        }
        return new Estimate(
                "numBlocks",
                mostSeen,
                Double.NaN,
                mostSeen,
                Double.POSITIVE_INFINITY,
                false,
                "not identified: without the server's KV cache use (scrape its metrics with --server-metrics) the "
                        + "client sees only that the cache held at least " + mostSeen + " blocks");
    }

    /**
     * The most blocks held, read just before each request leaves the batch (where the batch's
     * contexts are longest): each running request holds ceil(context / blockSize).
     */
    static long peakBlocks(List<RequestTimeline> requests, int blockSize) {
        long most = 0;
        for (RequestTimeline q : requests) {
            most = Math.max(most, blocksAt(requests, null, q.lastTokenNanos() - 1, blockSize));
        }
        return most;
    }

    /**
     * When each request entered the batch: the start of the step that gave its first token, which
     * is the end of the step before, the last token event of the run more than 0.3 typical steps
     * before its first token (or its send, when none came between).
     */
    static long[] admissions(List<RequestTimeline> requests, double stepMs) {
        long[] events = requests.stream()
                .flatMapToLong(q -> Arrays.stream(q.tokenNanos()))
                .sorted()
                .toArray();
        long[] admitted = new long[requests.size()];
        long margin = (long) (0.3 * stepMs * 1e6);
        for (int i = 0; i < admitted.length; i++) {
            RequestTimeline q = requests.get(i);
            int at = Arrays.binarySearch(events, q.firstTokenNanos() - margin);
            int before = at >= 0 ? at : -at - 2; // the last event at or before first − margin
            admitted[i] = before >= 0 ? Math.max(q.sentNanos(), events[before]) : q.sentNanos();
        }
        return admitted;
    }

    /**
     * Mean blocks held over [from, to), sampled at 50 evenly spaced instants; a request holds its
     * prompt's blocks from its admission ({@link #admissions}).
     */
    static double meanBlocks(List<RequestTimeline> requests, long[] admitted, long from, long to, int blockSize) {
        int samples = 50;
        double sum = 0;
        for (int i = 0; i < samples; i++) {
            sum += blocksAt(requests, admitted, from + (to - from) * (2L * i + 1) / (2L * samples), blockSize);
        }
        return sum / samples;
    }

    static long blocksAt(List<RequestTimeline> requests, long[] admitted, long t, int blockSize) {
        long blocks = 0;
        for (int i = 0; i < requests.size(); i++) {
            RequestTimeline q = requests.get(i);
            if ((admitted == null ? q.firstTokenNanos() : admitted[i]) <= t && q.lastTokenNanos() > t) {
                blocks += Math.ceilDiv(q.inputTokens() + q.tokensBy(t), blockSize);
            }
        }
        return blocks;
    }
}
