package dev.llmload.analysis;

import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TimeoutKind;
import dev.llmload.config.Load;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;

/**
 * The notes llmload writes about a run by itself (DESIGN.md §5 {@code notes}): each one names
 * something a reader must know to trust the numbers, with the evidence (counts, times, values).
 * Every rule looks only at the measured (non-warm-up) requests, and none fires on a clean run.
 * Times in messages are seconds from the first intended send of the measured phase. The rules are
 * documented in {@code docs/report.md}. Pure arithmetic.
 */
public final class NoteDetector {

    public static final String RATE_LIMITED = "rate_limited";
    public static final String OOM = "oom";
    public static final String TIMEOUTS = "timeouts";
    public static final String QUEUEING = "queueing";
    public static final String LATENCY_DRIFT = "latency_drift";
    public static final String CLIENT_BEHIND_SCHEDULE = "client_behind_schedule";
    public static final String LOW_SAMPLE_COUNT = "low_sample_count";
    public static final String HIGH_ERROR_RATE = "high_error_rate";
    public static final String STREAM_IGNORED = "stream_ignored";
    public static final String SERVER_CLIENT_DISAGREE = "server_client_disagree";
    public static final String SATURATED = "saturated";
    public static final String NO_STEADY_STATE = "no_steady_state";
    public static final String TARGET_UNREACHABLE = "target_unreachable";

    /** Every kind this detector writes: a rebuild replaces exactly these and keeps the others. */
    public static final java.util.Set<String> KINDS = java.util.Set.of(RATE_LIMITED, OOM, TIMEOUTS, QUEUEING,
            LATENCY_DRIFT, CLIENT_BEHIND_SCHEDULE, LOW_SAMPLE_COUNT, HIGH_ERROR_RATE, STREAM_IGNORED,
            SERVER_CLIENT_DISAGREE, SATURATED, NO_STEADY_STATE, TARGET_UNREACHABLE);

    /** Messages servers use when memory or KV-cache space runs out (vLLM, SGLang, TGI, PyTorch). */
    static final Pattern OOM_MESSAGE = Pattern.compile(
            "out of memory|\\boom\\b|kv cache|insufficient memory", Pattern.CASE_INSENSITIVE);
    static final int HTTP_INSUFFICIENT_STORAGE = 507;

    /** A trend needs thirds of at least this many samples, so one slow request cannot make one. */
    static final int MIN_SAMPLES_PER_THIRD = 10;
    /** A p50 that grew by both this factor and {@link #TREND_MIN_INCREASE_MS} is a trend. */
    static final double TREND_FACTOR = 1.5;
    static final double TREND_MIN_INCREASE_MS = 20;
    /** Client queueing matters when its p50 exceeds this and half the p50 TTFT (E2E when unstreamed). */
    static final double QUEUE_MIN_MS = 20;
    static final double QUEUE_SHARE_OF_LATENCY = 0.5;
    /** The p99 send lag beyond which an open-loop client is behind its schedule. */
    static final double SCHEDULE_LAG_P99_MS = 10;
    static final double HIGH_ERROR_RATE_THRESHOLD = 0.05;
    /** Connection failures in a row (by send time) that mean the target went away, not one lost connection. */
    static final int UNREACHABLE_MIN_FAILURES = 3;
    private static final int MAX_LISTED_VALUES = 5;
    /**
     * Distinct Retry-After values counted for the rate_limited note; a value first seen after this
     * many is left out of its list (the requests still count).
     */
    static final int MAX_RETRY_AFTER_VALUES = 1000;
    private static final int MAX_SAMPLE_LENGTH = 200;

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
    public static List<Note> detect(List<RequestRecord> all, RunResults results, Load load, Integer sessionGate,
                                    boolean streamRequested) {
        return detect(all, results, load, sessionGate, streamRequested, Saturation.of(all, load),
                SteadyState.of(all, null));
    }

    /**
     * @param saturation  {@link Saturation#of} the same records
     * @param steadyState {@link SteadyState#of} the same records
     */
    public static List<Note> detect(List<RequestRecord> all, RunResults results, Load load, Integer sessionGate,
                                    boolean streamRequested, Saturation saturation, SteadyState steadyState) {
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
    public static List<Note> detect(RequestTimes times, Tally tally, RunResults results, Load load, Integer sessionGate,
                                    boolean streamRequested, Saturation saturation, SteadyState steadyState) {
        int[] measured = times.measuredByIntended();
        if (measured.length == 0) {
            return List.of();
        }
        long start = times.intendedNanos(measured[0]);
        List<Note> notes = new ArrayList<>();
        saturated(saturation, notes);
        noSteadyState(steadyState, saturation, notes);
        tally.rateLimited(measured.length, start, notes);
        tally.oom(start, notes);
        tally.timeouts(measured.length, notes);
        queueing(times, measured, results, notes);
        latencyDrift(times, measured, notes);
        behindSchedule(ScheduleFidelity.lags(times, load, sessionGate), load.maxConcurrency(), sessionGate, notes);
        lowSampleCount(results, notes);
        highErrorRate(results, notes);
        targetUnreachable(times, measured, start, notes);
        if (streamRequested) {
            tally.streamIgnored(notes);
        }
        String disagreement = results.serverView() == null ? null : results.serverView().disagreement();
        if (disagreement != null) {
            notes.add(new Note(SERVER_CLIENT_DISAGREE, disagreement));
        }
        return List.copyOf(notes);
    }

    /**
     * What the notes count of the measured requests as they stream past, beside their
     * {@link RequestTimes}: rate limiting (with each Retry-After value), signs of running out of
     * memory, timeouts by kind, and successes answered without a stream. Bounded: counts, the
     * extremes, one sample message and one entry per distinct Retry-After value. Where the notes
     * list things in order of intended send, each keeps the intended send and place of its first.
     * Owned by one thread.
     */
    public static final class Tally {

        private long position = -1;
        private long limited;
        private long limitedFirstEnd = Long.MAX_VALUE;
        private long limitedLastEnd = Long.MIN_VALUE;
        /**
         * Per Retry-After value: {count, intended send of its first, place of its first}. The
         * header is the server's, so the distinct values kept are capped.
         */
        private final Map<String, long[]> retryAfter = new LinkedHashMap<>();
        private long oom;
        private long oomFirstEnd = Long.MAX_VALUE;
        private String oomSample;
        private long oomSampleIntended = Long.MAX_VALUE;
        private long oomSamplePosition;
        private final Map<String, Long> timeoutsByKind = new LinkedHashMap<>();
        private long timeouts;
        private long succeeded;
        private long unstreamed;

        public Tally() {
            for (TimeoutKind kind : TimeoutKind.values()) {
                timeoutsByKind.put(kind.key(), 0L);
            }
        }

        public void add(RequestRecord record) {
            position++;
            if (record.warmup()) {
                return;
            }
            long intended = record.timings().intendedSendNanos();
            long end = record.timings().endNanos();
            if (record.httpStatus() == 429 || failureClass(record) == FailureClass.RATE_LIMITED) {
                limited++;
                limitedFirstEnd = Math.min(limitedFirstEnd, end);
                limitedLastEnd = Math.max(limitedLastEnd, end);
                if (record.retryAfter() != null
                        && (retryAfter.size() < MAX_RETRY_AFTER_VALUES || retryAfter.containsKey(record.retryAfter()))) {
                    long[] entry = retryAfter.computeIfAbsent(record.retryAfter(),
                            v -> new long[] {0, Long.MAX_VALUE, 0});
                    entry[0]++;
                    if (earlier(intended, position, entry[1], entry[2])) {
                        entry[1] = intended;
                        entry[2] = position;
                    }
                }
            }
            if (looksLikeOom(record)) {
                oom++;
                oomFirstEnd = Math.min(oomFirstEnd, end);
                String message = ((Outcome.Failure) record.outcome()).message();
                if (message != null && OOM_MESSAGE.matcher(message).find()
                        && earlier(intended, position, oomSampleIntended, oomSamplePosition)) {
                    oomSample = message;
                    oomSampleIntended = intended;
                    oomSamplePosition = position;
                }
            }
            if (record.outcome() instanceof Outcome.Failure failure && failure.failureClass() == FailureClass.TIMEOUT) {
                timeouts++;
                timeoutsByKind.merge(failure.timeoutKind() == null ? "unknown" : failure.timeoutKind().key(), 1L,
                        Long::sum);
            }
            if (record.succeeded()) {
                succeeded++;
                if (!record.streamed()) {
                    unstreamed++;
                }
            }
        }

        private static boolean earlier(long intended, long position, long thanIntended, long thanPosition) {
            return intended < thanIntended || intended == thanIntended && position < thanPosition;
        }

        private void rateLimited(int measured, long start, List<Note> notes) {
            if (limited == 0) {
                return;
            }
            // Listed as they first came in order of intended send (the order of equal counts).
            List<Map.Entry<String, long[]>> firstSeen = new ArrayList<>(retryAfter.entrySet());
            firstSeen.sort(Comparator.<Map.Entry<String, long[]>>comparingLong(e -> e.getValue()[1])
                    .thenComparingLong(e -> e.getValue()[2]));
            Map<String, Long> retryAfterCounts = new LinkedHashMap<>();
            firstSeen.forEach(e -> retryAfterCounts.put(e.getKey(), e.getValue()[0]));
            String retry = retryAfterCounts.isEmpty() ? "no Retry-After header"
                    : "Retry-After " + listCounts(retryAfterCounts, " ×");
            notes.add(new Note(RATE_LIMITED, String.format(Locale.ROOT,
                    "%d of %d requests (%s) were rate limited (HTTP 429) between t=%s and t=%s; %s",
                    limited, measured, percent(limited, measured), seconds(limitedFirstEnd, start),
                    seconds(limitedLastEnd, start), retry)));
        }

        private void oom(long start, List<Note> notes) {
            if (oom == 0) {
                return;
            }
            String sample = oomSample == null ? "" : "; e.g. \"" + truncate(oomSample) + "\"";
            notes.add(new Note(OOM, String.format(Locale.ROOT,
                    "%d requests failed with signs of the server running out of memory (HTTP 507, or a message naming "
                            + "memory or the KV cache), first at t=%s%s",
                    oom, seconds(oomFirstEnd, start), sample)));
        }

        private void timeouts(int measured, List<Note> notes) {
            if (timeouts == 0) {
                return;
            }
            Map<String, Long> byKind = new LinkedHashMap<>(timeoutsByKind);
            byKind.values().removeIf(c -> c == 0);
            notes.add(new Note(TIMEOUTS, String.format(Locale.ROOT, "%d of %d requests (%s) timed out: %s",
                    timeouts, measured, percent(timeouts, measured), listCounts(byKind, " "))));
        }

        private void streamIgnored(List<Note> notes) {
            if (unstreamed > 0) {
                notes.add(new Note(STREAM_IGNORED, String.format(Locale.ROOT,
                        "%d of %d succeeded requests were answered in one JSON body although a stream was asked for: "
                        + "the server ignores \"stream\", so they have no TTFT, ITL or TPOT, only E2E latency",
                        unstreamed, succeeded)));
            }
        }
    }

    /** The figures of {@link Saturation} when its rule says the server could not keep up. */
    private static void saturated(Saturation s, List<Note> notes) {
        if (s == null || !Boolean.TRUE.equals(s.saturated())) {
            return;
        }
        String offered = s.offeredRequestRate() == null ? "" : String.format(Locale.ROOT, "offered %.2f req/s, ",
                s.offeredRequestRate());
        notes.add(new Note(SATURATED, String.format(Locale.ROOT,
                "%sscheduled %.2f req/s over %.1f s of arrivals, achieved %.2f req/s; at the last arrival %d requests "
                        + "were unfinished (%d in flight, %d queued at the client) where a server keeping up would "
                        + "hold about %.1f (its starting latency %.3f s × the rate), and %.1f on average over the last "
                        + "third of the arrivals; the backlog took %.1f s to drain after the last arrival: more load "
                        + "was offered than the server could serve, so its latencies grow with the run's length",
                offered, s.scheduledRequestRate(), s.arrivalWindowS(), s.achievedRequestRate(), s.backlog(),
                s.backlogInFlight(), s.backlogQueued(), s.steadyBacklog(), s.startLatencyS(), s.lateBacklogMean(),
                s.drainS())));
    }

    /** The run's latencies still trended halfway through: its results describe a transient. */
    private static void noSteadyState(SteadyState steady, Saturation saturation, List<Note> notes) {
        if (steady == null || steady.reached()) {
            return;
        }
        boolean saturated = saturation != null && Boolean.TRUE.equals(saturation.saturated());
        String need = saturated ? "the run is saturated, so no length will do at this load: lower it"
                : String.format(Locale.ROOT, "a run of at least %d requests%s would be needed", steady.neededRequests(),
                        steady.neededS() == null ? "" : String.format(Locale.ROOT, " (%.1f s of arrivals)", steady.neededS()));
        notes.add(new Note(NO_STEADY_STATE, String.format(Locale.ROOT,
                "the latency from intended send to end still trended halfway through the %.1f s of arrivals "
                        + "(MSER-5 finds no plateau before the middle of the run): every result describes a "
                        + "transient, not the server's steady state; %s", steady.endS(), need)));
    }

    /**
     * Periods in which every request sent failed to connect: the target went away at the first
     * such send and came back at the next request that got any answer (or never, in this run).
     */
    private static void targetUnreachable(RequestTimes times, int[] measured, long start, List<Note> notes) {
        // Requests llmload cancelled itself say nothing about the target.
        int[] sent = Arrays.stream(measured).filter(i -> times.sentNanos(i) != RequestTimings.NEVER
                && times.failureClass(i) != FailureClass.CANCELLED).toArray();
        int[] bySend = times.bySent(sent);
        List<String> periods = new ArrayList<>();
        long failures = 0;
        int inRow = 0;
        long wentAway = 0;
        for (int i : bySend) {
            if (times.failureClass(i) == FailureClass.CONNECT) {
                if (inRow++ == 0) {
                    wentAway = times.sentNanos(i);
                }
                continue;
            }
            if (inRow >= UNREACHABLE_MIN_FAILURES) {
                failures += inRow;
                periods.add(String.format(Locale.ROOT, "from t=%s to t=%s (%d connection failures)",
                        seconds(wentAway, start), seconds(times.sentNanos(i), start), inRow));
            }
            inRow = 0;
        }
        if (inRow >= UNREACHABLE_MIN_FAILURES) {
            failures += inRow;
            periods.add(String.format(Locale.ROOT, "from t=%s to the end of the run (%d connection failures)",
                    seconds(wentAway, start), inRow));
        }
        if (!periods.isEmpty()) {
            notes.add(new Note(TARGET_UNREACHABLE, String.format(Locale.ROOT,
                    "the target could not be reached %s; %d requests failed to connect in all, and a closed loop "
                    + "backed off (50 ms doubling to 2 s) while it was away", String.join(", ", periods.subList(0,
                            Math.min(periods.size(), MAX_LISTED_VALUES))), failures)));
        }
    }

    static boolean looksLikeOom(RequestRecord record) {
        if (!(record.outcome() instanceof Outcome.Failure failure)) {
            return false;
        }
        return record.httpStatus() == HTTP_INSUFFICIENT_STORAGE
                || failure.message() != null && OOM_MESSAGE.matcher(failure.message()).find();
    }

    /**
     * Client queueing is noted when its p50 grows through the run (a trend, see
     * {@link #trend}) or when it is large beside the service latency: p50 queue time over
     * {@link #QUEUE_MIN_MS} and at least {@link #QUEUE_SHARE_OF_LATENCY} of the p50 TTFT.
     */
    private static void queueing(RequestTimes times, int[] measured, RunResults results, List<Note> notes) {
        double[] queue = Arrays.stream(measured).filter(i -> times.sentNanos(i) >= 0)
                .mapToDouble(times::clientQueueMs).toArray();
        if (queue.length == 0) {
            return;
        }
        List<String> evidence = new ArrayList<>();
        double[] thirds = trend(queue);
        if (thirds != null) {
            evidence.add(String.format(Locale.ROOT, "client queue time p50 rose from %s in the first third of the "
                    + "requests to %s in the last", ms(thirds[0]), ms(thirds[1])));
        }
        double queueP50 = median(queue);
        boolean streamed = !results.ttftMs().isEmpty();
        Double latencyP50 = streamed ? results.ttftMs().p50() : results.e2eLatencyMs().p50();
        if (latencyP50 != null && queueP50 > QUEUE_MIN_MS && queueP50 >= QUEUE_SHARE_OF_LATENCY * latencyP50) {
            evidence.add(String.format(Locale.ROOT, "requests waited a p50 of %s at the client before being sent, "
                    + "beside a p50 %s of %s", ms(queueP50), streamed ? "TTFT" : "E2E latency", ms(latencyP50)));
        }
        if (!evidence.isEmpty()) {
            notes.add(new Note(QUEUEING, String.join("; ", evidence)
                    + ": more load was offered than was served (see the *_from_intended latencies)"));
        }
    }

    private static void latencyDrift(RequestTimes times, int[] measured, List<Note> notes) {
        int[] succeeded = Arrays.stream(measured).filter(times::succeeded).toArray();
        List<String> evidence = new ArrayList<>();
        drift("TTFT", Arrays.stream(succeeded).mapToDouble(times::ttftMs), evidence);
        drift("E2E latency", Arrays.stream(succeeded).mapToDouble(times::e2eMs), evidence);
        if (!evidence.isEmpty()) {
            notes.add(new Note(LATENCY_DRIFT, String.join("; ", evidence)
                    + " (successful requests in order of intended send): the run did not reach a steady state"));
        }
    }

    private static void drift(String name, DoubleStream values, List<String> evidence) {
        double[] thirds = trend(values.filter(v -> !Double.isNaN(v)).toArray());
        if (thirds != null) {
            evidence.add(String.format(Locale.ROOT, "%s p50 rose from %s in the first third of the requests to %s in "
                    + "the last", name, ms(thirds[0]), ms(thirds[1])));
        }
    }

    /**
     * Compares the p50 of the first and the last third of {@code inOrder}.
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

    /**
     * Send lag (actual − intended send) of a schedule: an open loop's, or a session run's think
     * times. Requests that waited at a full gate are queueing, not lag; {@link ScheduleFidelity}
     * leaves them out.
     */
    private static void behindSchedule(ScheduleFidelity.Lags schedule, Integer gate, Integer sessionGate,
                                       List<Note> notes) {
        if (schedule == null || schedule.lagsMs().length == 0) {
            return;
        }
        double[] lags = schedule.lagsMs();
        Summary lag = Statistics.summarize(lags);
        if (lag.p99() <= SCHEDULE_LAG_P99_MS) {
            return;
        }
        long late = Arrays.stream(lags).filter(l -> l > SCHEDULE_LAG_P99_MS).count();
        String gated = schedule.sessions() ? sessionGate == null ? "" : ", counting only sessions that found a free --max-sessions slot"
                : gate == null ? "" : ", counting only requests that found a free --max-concurrency slot";
        notes.add(new Note(CLIENT_BEHIND_SCHEDULE, String.format(Locale.ROOT,
                "the client could not keep its %s: send lag p50 %s, p99 %s, max %s over %d requests "
                        + "(%d later than %s)%s; the load offered was lower and burstier than configured",
                schedule.sessions() ? "session schedule (session starts and think times)" : "open-loop schedule",
                ms(lag.p50()), ms(lag.p99()), ms(lag.max()), lags.length, late, ms(SCHEDULE_LAG_P99_MS), gated)));
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

    private static void lowSampleCount(RunResults results, List<Note> notes) {
        Map<String, Summary> summaries = new LinkedHashMap<>();
        summaries.put("ttft_ms", results.ttftMs());
        summaries.put("itl_ms", results.itlMs());
        summaries.put("tpot_ms", results.tpotMs());
        summaries.put("e2e_latency_ms", results.e2eLatencyMs());
        List<String> evidence = new ArrayList<>();
        for (Percentile percentile : List.of(Percentile.P99, Percentile.P99_9)) {
            Map<String, Long> few = new LinkedHashMap<>();
            summaries.forEach((name, summary) -> {
                if (!summary.isEmpty() && summary.isLowConfidence(percentile)) {
                    few.put(name, summary.count());
                }
            });
            if (!few.isEmpty()) {
                evidence.add(String.format(Locale.ROOT, "%s rests on fewer than %,d samples for %s", percentile.key(),
                        percentile.minimumConfidentCount(), listCounts(few, " ")));
            }
        }
        if (!evidence.isEmpty()) {
            notes.add(new Note(LOW_SAMPLE_COUNT, String.join("; ", evidence)
                    + ": read those percentiles as rough estimates, or run more requests"));
        }
    }

    private static void highErrorRate(RunResults results, List<Note> notes) {
        if (results.errorRate() == null || results.errorRate() <= HIGH_ERROR_RATE_THRESHOLD) {
            return;
        }
        Map<String, Long> byClass = new LinkedHashMap<>();
        results.errors().forEach((key, summary) -> byClass.put(key, summary.count()));
        notes.add(new Note(HIGH_ERROR_RATE, String.format(Locale.ROOT, "%d of %d requests failed (%s): %s",
                results.requests().failed(), results.requests().attempted(),
                percent(results.requests().failed(), results.requests().attempted()), listCounts(byClass, " "))));
    }

    private static FailureClass failureClass(RequestRecord record) {
        return record.outcome() instanceof Outcome.Failure failure ? failure.failureClass() : null;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return Statistics.percentile(sorted, 50);
    }

    /** "a 3, b 2", at most {@link #MAX_LISTED_VALUES} entries, the largest first. */
    private static String listCounts(Map<String, Long> counts, String separator) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        String listed = entries.stream().limit(MAX_LISTED_VALUES).map(e -> e.getKey() + separator + e.getValue())
                .collect(Collectors.joining(", "));
        return entries.size() > MAX_LISTED_VALUES ? listed + ", ..." : listed;
    }

    private static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    private static String seconds(long nanos, long start) {
        return String.format(Locale.ROOT, "%.1f s", (nanos - start) / 1e9);
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, "%.1f ms", value);
    }

    private static String truncate(String message) {
        String line = message.replace('\n', ' ');
        return line.length() <= MAX_SAMPLE_LENGTH ? line : line.substring(0, MAX_SAMPLE_LENGTH) + "...";
    }
}
