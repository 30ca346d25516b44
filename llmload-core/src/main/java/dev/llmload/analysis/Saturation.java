package dev.llmload.analysis;

import dev.llmload.config.Load;
import dev.llmload.record.RequestRecord;
import java.util.Arrays;
import java.util.List;

/**
 * The load offered beside the load served ({@code saturation} in {@code report.json}): what the
 * run asked of the server, what the server completed while the arrivals went on, what was left
 * unfinished when they stopped and how long it took to drain. A server that cannot keep up looks
 * like one that can for as long as its queue has room to grow; these figures are where it shows.
 * Computed from the records alone, so a rebuilt report gets the same values. Pure arithmetic.
 *
 * <p>The <b>arrival window</b> runs from the first to the last intended send of the measured
 * requests. The <b>backlog</b> at its end counts the requests that had arrived but not finished:
 * those sent and still in flight, and those whose intended send had passed but that were not yet
 * sent (queued at the {@code --max-concurrency} gate, or behind a client that fell behind).
 *
 * <p>The rule for {@link #saturated}: a server that keeps up carries, by Little's law, about
 * {@code rate × latency} requests at any moment; a saturated one carries more with every arrival.
 * The latency the run started with ({@link #startLatencyS}: the median time from intended send to
 * end of the first {@link #startSample} arrivals) gives the
 * backlog a steady server holds, {@link #steadyBacklog}. The run is saturated when both the
 * backlog at the last arrival and the mean backlog met by the arrivals of the last third exceed
 * {@link #ALLOWANCE_FACTOR} times that plus {@link #NOISE_SIGMAS} standard deviations of a
 * Poisson count of it (at least 1): the backlog grew through the run, and the completions in the
 * arrival window fell short of the arrivals by more than a steady server leaves in flight.
 * Comparing with the arrivals the schedule actually made, not with rate × window, takes the noise
 * of the arrival process out of the comparison. Open loops and traces only: a closed loop offers
 * no rate, it waits for the server.
 *
 * @param offeredRequestRate   the configured rate of an open loop; null for shapes without one, traces and closed loops
 * @param offeredConcurrency   the concurrency of a closed loop; null otherwise
 * @param arrivals             measured requests (sessions: every turn)
 * @param arrivalWindowS       first to last intended send; null with fewer than 2 arrivals
 * @param scheduledRequestRate (arrivals − 1) / window: the rate the schedule made; null for a closed loop
 * @param achievedRequestRate  requests that ended (any outcome) within the window, per second of it
 * @param backlogInFlight      sent and unfinished at the last arrival (warm-up included: it holds the server too)
 * @param backlogQueued        arrived by the last arrival but not yet sent
 * @param steadyBacklog        {@code scheduledRequestRate × startLatencyS}; null for a closed loop
 * @param lateBacklogMean      mean backlog met by the arrivals of the last third; null for a closed loop
 * @param drainS               last arrival to the last end of a measured request
 * @param saturated            null for a closed loop, a session run, or fewer than {@link #MIN_ARRIVALS} arrivals
 * @param stages               the same offered against served stage by stage for a load that changes over
 *                             the run (a ramp, stages, a concurrency profile: {@link LoadStage}); null otherwise
 */
public record Saturation(
        Double offeredRequestRate,
        Integer offeredConcurrency,
        long arrivals,
        Double arrivalWindowS,
        Double scheduledRequestRate,
        Double achievedRequestRate,
        long backlogInFlight,
        long backlogQueued,
        Double startLatencyS,
        Double steadyBacklog,
        Double lateBacklogMean,
        Double drainS,
        Boolean saturated,
        List<LoadStage> stages) {

    static final int MIN_ARRIVALS = 10;
    static final int START_SAMPLE = 5;
    static final int MAX_START_SAMPLE = 20;
    static final double ALLOWANCE_FACTOR = 2;
    static final double NOISE_SIGMAS = 3;

    /**
     * How many of the first arrivals give the start latency: a tenth, at least {@link #START_SAMPLE}
     * and at most {@link #MAX_START_SAMPLE}, so that in a long saturated run it is still the
     * latency the run started with, before the queue grew.
     */
    public static int startSample(int arrivals) {
        return Math.min(arrivals, Math.max(START_SAMPLE, Math.min(MAX_START_SAMPLE, (int) Math.ceil(arrivals / 10.0))));
    }

    /** The backlog above which a run of this {@link #steadyBacklog} counts as saturated. */
    public static double allowance(double steadyBacklog) {
        return ALLOWANCE_FACTOR * steadyBacklog + NOISE_SIGMAS * Math.sqrt(Math.max(1, steadyBacklog));
    }

    /**
     * How many start latencies an arrival window must cover for the rule to tell an overload of
     * about 10% from a server keeping up: the backlog of a load {@code 1 + ε} times what the server
     * serves grows by {@code ε / (1 + ε)} of the arrivals, which passes twice the steady backlog only
     * once the window is {@code 2 (1 + ε) / ε} start latencies long, 22 for ε = 0.1.
     */
    public static final int MIN_WINDOW_LATENCIES = 20;

    /** The arrival window this run needed to tell; null for a closed loop. */
    public Double neededWindowS() {
        return startLatencyS == null ? null : MIN_WINDOW_LATENCIES * startLatencyS;
    }

    /** True when the arrival window was shorter than {@link #neededWindowS}: a pass by the rule proves little. */
    public boolean tooShort() {
        Double needed = neededWindowS();
        return needed != null && (arrivalWindowS == null || arrivalWindowS < needed);
    }

    /** Requests that had arrived and not finished at the last arrival. */
    public long backlog() {
        return backlogInFlight + backlogQueued;
    }

    /** @return null when nothing was measured */
    public static Saturation of(List<RequestRecord> all, Load load) {
        return of(RequestTimes.of(all), load);
    }

    /** @return null when nothing was measured */
    public static Saturation of(RequestTimes times, Load load) {
        int[] order = times.measuredByIntended();
        int n = order.length;
        if (n == 0) {
            return null;
        }
        long first = times.intendedNanos(order[0]);
        long last = times.intendedNanos(order[n - 1]);
        Double window = n < 2 || last == first ? null : (last - first) / 1e9;
        long[] intended = new long[n];
        long[] measuredSends = new long[n];
        long completed = 0;
        long lastEnd = Long.MIN_VALUE;
        boolean sessions = false;
        for (int j = 0; j < n; j++) {
            int i = order[j];
            intended[j] = times.intendedNanos(i);
            measuredSends[j] = times.sentNanos(i);
            long end = times.endNanos(i);
            if (end >= first && end <= last) {
                completed++;
            }
            lastEnd = Math.max(lastEnd, end);
            sessions |= times.inSession(i);
        }
        Arrays.sort(measuredSends);
        // Every sent request, warm-up included: it holds the server too.
        int sentCount = 0;
        for (int i = 0; i < times.size(); i++) {
            if (times.sentNanos(i) >= 0) {
                sentCount++;
            }
        }
        long[] sends = new long[sentCount];
        long[] ends = new long[sentCount];
        for (int i = 0, k = 0; i < times.size(); i++) {
            if (times.sentNanos(i) >= 0) {
                sends[k] = times.sentNanos(i);
                ends[k++] = Math.max(times.sentNanos(i), times.endNanos(i));
            }
        }
        Arrays.sort(sends);
        Arrays.sort(ends);

        boolean open = load.isOpen();
        Double scheduled = open && window != null ? (n - 1) / window : null;
        Double startLatency = null;
        Double steady = null;
        Double lateMean = null;
        Boolean saturated = null;
        long[] atEnd = backlogAt(last, sends, ends, intended, measuredSends);
        long inFlight = atEnd[0];
        long queued = atEnd[1];
        if (open) {
            int sample = startSample(n);
            double[] latencies = new double[sample];
            for (int j = 0; j < sample; j++) {
                latencies[j] = (times.endNanos(order[j]) - times.intendedNanos(order[j])) / 1e9;
            }
            Arrays.sort(latencies);
            startLatency = latencies[latencies.length / 2];
            steady = scheduled == null ? null : scheduled * startLatency;
            double sum = 0;
            int lastThird = Math.max(1, n / 3);
            for (int i = n - lastThird; i < n; i++) {
                long[] b = backlogAt(intended[i], sends, ends, intended, measuredSends);
                sum += b[0] + b[1];
            }
            lateMean = sum / lastThird;
            if (!sessions && n >= MIN_ARRIVALS && steady != null) {
                double allowance = allowance(steady);
                saturated = inFlight + queued > allowance && lateMean > allowance;
            }
        }
        return new Saturation(
                load instanceof Load.Open o ? o.requestRate() : null,
                load instanceof Load.Closed c ? c.concurrency() : null,
                n,
                window,
                scheduled,
                window == null ? null : completed / window,
                inFlight,
                queued,
                startLatency,
                steady,
                lateMean,
                Math.max(0, lastEnd - last) / 1e9,
                saturated,
                LoadStage.of(times, load));
    }

    /**
     * {in flight, queued} at {@code t}: sent at or before {@code t} and ending after it; intended at
     * or before {@code t} and sent after it.
     */
    private static long[] backlogAt(
            long t, long[] sortedSends, long[] sortedEnds, long[] sortedIntended, long[] sortedMeasuredSends) {
        long inFlight = countAtOrBelow(sortedSends, t) - countAtOrBelow(sortedEnds, t);
        long queued = countAtOrBelow(sortedIntended, t) - countAtOrBelow(sortedMeasuredSends, t);
        return new long[] {inFlight, Math.max(0, queued)};
    }

    private static int countAtOrBelow(long[] sorted, long t) {
        int index = Arrays.binarySearch(sorted, t);
        if (index < 0) {
            return -index - 1;
        }
        while (index + 1 < sorted.length && sorted[index + 1] == t) {
            index++;
        }
        return index + 1;
    }
}
