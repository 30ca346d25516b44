package dev.llmload.analysis;

import dev.llmload.config.Load;
import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.record.RequestRecord;
import dev.llmload.stats.Statistics;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The notes llmload writes about a run by itself (DESIGN.md §5 {@code notes}): each one names
 * something a reader must know to trust the numbers, with the evidence (counts, times, values).
 * Each rule is a {@link NoteRule} of its own; this class runs them in {@link #RULES}' order, which
 * is the order of the notes in {@code report.json}. Every rule looks only at the measured
 * (non-warm-up) requests, and none fires on a clean run. Times in messages are seconds from the
 * first intended send of the measured phase. The rules are documented in {@code docs/report.md}.
 * Pure arithmetic.
 */
public final class NoteDetector {

    public static final String RATE_LIMITED = RateLimitedRule.KIND;
    public static final String OOM = OutOfMemoryRule.KIND;
    public static final String TIMEOUTS = TimeoutsRule.KIND;
    public static final String QUEUEING = QueueingRule.KIND;
    public static final String LATENCY_DRIFT = LatencyDriftRule.KIND;
    public static final String CLIENT_BEHIND_SCHEDULE = BehindScheduleRule.KIND;
    public static final String LOW_SAMPLE_COUNT = LowSampleCountRule.KIND;
    public static final String HIGH_ERROR_RATE = HighErrorRateRule.KIND;
    public static final String STREAM_IGNORED = StreamIgnoredRule.KIND;
    public static final String SERVER_CLIENT_DISAGREE = ServerClientDisagreeRule.KIND;
    public static final String SATURATED = SaturatedRule.KIND;
    public static final String NO_STEADY_STATE = NoSteadyStateRule.KIND;
    public static final String TARGET_UNREACHABLE = TargetUnreachableRule.KIND;

    /** The rules, in the order their notes are written. */
    private static final List<NoteRule> RULES = List.of(
            new SaturatedRule(),
            new NoSteadyStateRule(),
            new RateLimitedRule(),
            new OutOfMemoryRule(),
            new TimeoutsRule(),
            new QueueingRule(),
            new LatencyDriftRule(),
            new BehindScheduleRule(),
            new LowSampleCountRule(),
            new HighErrorRateRule(),
            new TargetUnreachableRule(),
            new StreamIgnoredRule(),
            new ServerClientDisagreeRule());

    /** Every kind this detector writes: a rebuild replaces exactly these and keeps the others. */
    public static final Set<String> KINDS = RULES.stream().map(NoteRule::kind).collect(Collectors.toUnmodifiableSet());

    /** {@link OutOfMemoryRule#MESSAGE}: what an error message says when memory ran out. */
    static final Pattern OOM_MESSAGE = OutOfMemoryRule.MESSAGE;

    /** A trend needs thirds of at least this many samples, so one slow request cannot make one. */
    static final int MIN_SAMPLES_PER_THIRD = 10;
    /** A p50 that grew by both this factor and {@link #TREND_MIN_INCREASE_MS} is a trend. */
    static final double TREND_FACTOR = 1.5;

    static final double TREND_MIN_INCREASE_MS = 20;

    private NoteDetector() {}

    /**
     * @param all        every record of the run, warm-up included (warm-up requests still held
     *                   concurrency-gate slots, which the schedule rule needs)
     * @param results    computed from the same records
     * @param load       the load as configured: the schedule rule applies to open loops only
     */
    public static List<Note> detect(List<RequestRecord> all, RunResults results, Load load) {
        return detect(all, results, load, null);
    }

    /**
     * @param sessionGate {@code --max-sessions} of an open-loop session run (null otherwise): a
     *                    session start that found it full waited, which is not lag
     */
    public static List<Note> detect(List<RequestRecord> all, RunResults results, Load load, Integer sessionGate) {
        return detect(all, results, load, sessionGate, false);
    }

    /**
     * @param streamRequested the requests asked for a stream: a success answered in one body means
     *                        the server ignored that
     */
    public static List<Note> detect(
            List<RequestRecord> all, RunResults results, Load load, Integer sessionGate, boolean streamRequested) {
        return detect(
                all, results, load, sessionGate, streamRequested, Saturation.of(all, load), SteadyState.of(all, null));
    }

    /**
     * @param saturation  {@link Saturation#of} the same records
     * @param steadyState {@link SteadyState#of} the same records
     */
    public static List<Note> detect(
            List<RequestRecord> all,
            RunResults results,
            Load load,
            Integer sessionGate,
            boolean streamRequested,
            Saturation saturation,
            SteadyState steadyState) {
        RequestTimes times = new RequestTimes();
        Tally tally = new Tally();
        for (RequestRecord record : all) {
            times.add(record);
            tally.add(record);
        }
        return detect(times, tally, results, load, sessionGate, streamRequested, saturation, steadyState);
    }

    /**
     * The notes from one pass over the records: their {@link RequestTimes} and {@link Tally}, each
     * fed every record in the same order.
     */
    public static List<Note> detect(
            RequestTimes times,
            Tally tally,
            RunResults results,
            Load load,
            Integer sessionGate,
            boolean streamRequested,
            Saturation saturation,
            SteadyState steadyState) {
        int[] measured = times.measuredByIntended();
        if (measured.length == 0) {
            return List.of();
        }
        MeasuredRun run = new MeasuredRun(
                times,
                measured,
                times.intendedNanos(measured[0]),
                tally,
                results,
                load,
                sessionGate,
                streamRequested,
                saturation,
                steadyState);
        return RULES.stream()
                .map(rule -> rule.detect(run))
                .flatMap(Optional::stream)
                .toList();
    }

    /**
     * What the rules count of the measured requests as they stream past, beside their
     * {@link RequestTimes}: each counting rule's own count (rate limiting with each Retry-After
     * value, signs of running out of memory, timeouts by kind, successes answered without a
     * stream). Bounded: counts, the extremes, one sample message and one entry per distinct
     * Retry-After value. Where the notes list things in order of intended send, each keeps the
     * intended send and place of its first. Owned by one thread.
     */
    public static final class Tally {

        private long position = -1;
        final RateLimitedRule.Count rateLimited = new RateLimitedRule.Count();
        final OutOfMemoryRule.Count outOfMemory = new OutOfMemoryRule.Count();
        final TimeoutsRule.Count timeouts = new TimeoutsRule.Count();
        final StreamIgnoredRule.Count streamIgnored = new StreamIgnoredRule.Count();

        public void add(RequestRecord record) {
            position++;
            if (record.warmup()) {
                return;
            }
            rateLimited.add(record, position);
            outOfMemory.add(record, position);
            timeouts.add(record);
            streamIgnored.add(record);
        }

        /** Whether a request is earlier by intended send, and among equal ones by place in the records. */
        static boolean earlier(long intendedNanos, long position, long thanIntendedNanos, long thanPosition) {
            return intendedNanos < thanIntendedNanos || intendedNanos == thanIntendedNanos && position < thanPosition;
        }
    }

    /**
     * Compares the p50 of the first and the last third of {@code inOrder}: the trend that
     * {@link QueueingRule} and {@link LatencyDriftRule} look for.
     *
     * @return {first, last} when the last is above {@link #TREND_FACTOR} times the first and
     *         {@link #TREND_MIN_INCREASE_MS} higher, with {@link #MIN_SAMPLES_PER_THIRD} or more per
     *         third; else null
     */
    static double[] trend(double[] inOrder) {
        int third = inOrder.length / 3;
        if (third < MIN_SAMPLES_PER_THIRD) {
            return null;
        }
        double first = median(Arrays.copyOfRange(inOrder, 0, third));
        double last = median(Arrays.copyOfRange(inOrder, inOrder.length - third, inOrder.length));
        return last > TREND_FACTOR * first && last - first > TREND_MIN_INCREASE_MS ? new double[] {first, last} : null;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return Statistics.percentile(sorted, 50);
    }

    /** Requests sent before {@code t} and not ended before it; {@code ends[i] ≥} its send, so the difference counts. */
    static int inFlightAt(long t, long[] sortedSends, long[] sortedEnds) {
        return countBelow(sortedSends, t) - countBelow(sortedEnds, t);
    }

    private static int countBelow(long[] sorted, long t) {
        int index = Arrays.binarySearch(sorted, t);
        if (index < 0) {
            return -index - 1;
        }
        while (index > 0 && sorted[index - 1] == t) {
            index--;
        }
        return index;
    }
}
