package dev.llmload.metrics;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TextCounts;
import dev.llmload.stats.DistributionAccumulator;
import dev.llmload.stats.Summary;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code results} section of a report: counts, rates, throughputs and one {@link Summary} per
 * distribution, computed from the measured (non-warm-up) requests by the rules of DESIGN.md §3.
 * Failed requests count in every rate but in no latency distribution. Pure arithmetic.
 *
 * @param durationS            first intended send of the measured phase to its last completion;
 *                             null when nothing was measured
 * @param goodput              share and rate of requests meeting the SLO; null when no SLO was given
 * @param itlMs                inter-token gaps per token-bearing event, pooled over requests
 * @param itlPerTokenMs        the same gaps spread over the tokens each event carried
 * @param ttstMs               time to second token: each request's first inter-token gap
 *                             ({@link RequestMetrics#timeToSecondTokenNanos})
 * @param outputTokenThroughputPerUser each request's decode speed in tokens per second,
 *                             {@link RequestMetrics#outputTokensPerSecondPerUser} (1000 / TPOT)
 * @param inputWords           words of each prompt ({@link TextCounts}), over the requests whose
 *                             prompt text was known; the next three likewise
 * @param outputCharacters     characters of each answer, over the requests whose stream carried
 *                             the text of every token
 * @param inputTokenThroughput input tokens of successful requests per second (the rate that
 *                             matters for embeddings and rerank)
 * @param serverView           the server's own timings beside the client's; null when the server
 *                             reported none (every OpenAI-shaped API)
 * @param sessions             the sessions and turns a multi-turn run ran; null outside sessions
 */
public record RunResults(
        RequestCounts requests,
        Double successRate,
        Double errorRate,
        Double timeoutRate,
        Double durationS,
        Double requestThroughput,
        Double outputTokenThroughput,
        Double totalTokenThroughput,
        Goodput goodput,
        Map<String, ErrorClassSummary> errors,
        Summary ttftMs,
        Summary ttfcMs,
        Summary itlMs,
        Summary itlPerTokenMs,
        Summary tpotMs,
        Summary ttstMs,
        Summary outputTokenThroughputPerUser,
        Summary e2eLatencyMs,
        Summary clientQueueTimeMs,
        Summary ttftFromIntendedMs,
        Summary e2eFromIntendedMs,
        Summary inputTokens,
        Summary outputTokens,
        Summary inputWords,
        Summary inputCharacters,
        Summary outputWords,
        Summary outputCharacters,
        Double inputTokenThroughput,
        ServerView serverView,
        SessionCounts sessions) {

    /** How many sample messages each failure class keeps. */
    static final int SAMPLE_MESSAGES = 3;

    public record RequestCounts(long attempted, long succeeded, long failed, long timedOut) {}

    /** @param byTimeoutKind only for {@code timeout}: counts per kind (connect, first_token, idle, total) */
    public record ErrorClassSummary(long count, double rate, List<String> samples, Map<String, Long> byTimeoutKind) {}

    public static RunResults compute(List<RequestRecord> all) {
        return compute(all, null);
    }

    /** @param slo the limits for {@link #goodput()}; null for none */
    public static RunResults compute(List<RequestRecord> all, Slo slo) {
        return compute(all, slo, InterTokenGaps.of(all));
    }

    /**
     * @param all  the records, which may be without their token gaps ({@link RequestRecord#withoutTokenGaps})
     * @param gaps the inter-token gaps of the same records, pooled from their full form
     */
    public static RunResults compute(List<RequestRecord> all, Slo slo, InterTokenGaps gaps) {
        Accumulator accumulator = new Accumulator(slo);
        all.forEach(accumulator::add);
        return accumulator.result(gaps);
    }

    /**
     * The results taken as records stream past, in one pass and bounded memory: counts, sums, the
     * window's ends and one {@link DistributionAccumulator} per distribution (exact up to its
     * capacity, within its stated error beyond), a few sample messages per failure class, and one
     * entry per session for {@link SessionCounts}. Fed the records in the order of a list,
     * {@link #result} equals {@link #compute} of that list. Owned by one thread.
     */
    public static final class Accumulator {

        private final Goodput.Tally goodput;
        private final ServerView.Tally serverView = new ServerView.Tally();
        private final SessionCounts.Tally sessions = new SessionCounts.Tally();
        private final Map<FailureClass, FailureTally> errors = new EnumMap<>(FailureClass.class);
        private final DistributionAccumulator ttft = new DistributionAccumulator();
        private final DistributionAccumulator ttfc = new DistributionAccumulator();
        private final DistributionAccumulator e2e = new DistributionAccumulator();
        private final DistributionAccumulator tpot = new DistributionAccumulator();
        private final DistributionAccumulator perUser = new DistributionAccumulator();
        private final DistributionAccumulator queue = new DistributionAccumulator();
        private final DistributionAccumulator ttftIntended = new DistributionAccumulator();
        private final DistributionAccumulator e2eIntended = new DistributionAccumulator();
        private final DistributionAccumulator inputTokens = new DistributionAccumulator();
        private final DistributionAccumulator outputTokens = new DistributionAccumulator();
        private final DistributionAccumulator inputWords = new DistributionAccumulator();
        private final DistributionAccumulator inputCharacters = new DistributionAccumulator();
        private final DistributionAccumulator outputWords = new DistributionAccumulator();
        private final DistributionAccumulator outputCharacters = new DistributionAccumulator();
        private long attempted;
        private long succeeded;
        private long timedOut;
        private long startNanos = Long.MAX_VALUE;
        private long endNanos = Long.MIN_VALUE;
        private long outputSum;
        private long inputSum;

        /** @param slo the limits for {@link RunResults#goodput()}; null for none */
        public Accumulator(Slo slo) {
            this.goodput = slo == null ? null : new Goodput.Tally(slo);
        }

        /** Adds one record, which may be without its token gaps; warm-up records count nowhere. */
        public void add(RequestRecord record) {
            if (record.warmup()) {
                return;
            }
            attempted++;
            startNanos = Math.min(startNanos, record.timings().intendedSendNanos());
            endNanos = Math.max(endNanos, record.timings().endNanos());
            if (record.timedOut()) {
                timedOut++;
            }
            if (goodput != null) {
                goodput.add(record);
            }
            serverView.add(record);
            sessions.add(record);
            if (record.outcome() instanceof Outcome.Failure failure) {
                errors.computeIfAbsent(failure.failureClass(), c -> new FailureTally())
                        .add(failure);
            }
            if (!record.succeeded()) {
                return;
            }
            succeeded++;
            RequestMetrics metrics = RequestMetrics.of(record);
            addIfPresent(ttft, metrics.ttftMs());
            addIfPresent(ttfc, metrics.ttfcMs());
            addIfPresent(e2e, metrics.e2eMs());
            addIfPresent(tpot, metrics.tpotMs());
            addIfPresent(perUser, metrics.outputTokensPerSecondPerUser());
            addIfPresent(ttftIntended, metrics.ttftFromIntendedMs());
            addIfPresent(e2eIntended, metrics.e2eFromIntendedMs());
            queue.add(metrics.clientQueueMs());
            inputTokens.add(record.inputTokens());
            outputTokens.add(record.outputTokens());
            TextCounts text = record.text();
            addIfKnown(inputWords, text.inputWords());
            addIfKnown(inputCharacters, text.inputCharacters());
            addIfKnown(outputWords, text.outputWords());
            addIfKnown(outputCharacters, text.outputCharacters());
            inputSum += record.inputTokens();
            outputSum += record.outputTokens();
        }

        /** @param gaps the inter-token gaps of the same records, pooled from their full form */
        public RunResults result(InterTokenGaps gaps) {
            long failed = attempted - succeeded;
            Double duration = attempted == 0 ? null : Math.max(0, endNanos - startNanos) / 1e9;
            boolean timed = duration != null && duration > 0;
            Map<String, ErrorClassSummary> errorSummaries = new LinkedHashMap<>();
            errors.forEach((failureClass, tally) -> errorSummaries.put(failureClass.key(), tally.summary(attempted)));
            return new RunResults(
                    new RequestCounts(attempted, succeeded, failed, timedOut),
                    rate(succeeded, attempted),
                    rate(failed, attempted),
                    rate(timedOut, attempted),
                    duration,
                    timed ? succeeded / duration : null,
                    timed ? outputSum / duration : null,
                    timed ? (inputSum + outputSum) / duration : null,
                    goodput == null ? null : goodput.result(duration),
                    errorSummaries,
                    ttft.summary(),
                    ttfc.summary(),
                    gaps.perEvent().summary(),
                    gaps.perToken().summary(),
                    tpot.summary(),
                    gaps.secondToken().summary(),
                    perUser.summary(),
                    e2e.summary(),
                    queue.summary(),
                    ttftIntended.summary(),
                    e2eIntended.summary(),
                    inputTokens.summary(),
                    outputTokens.summary(),
                    inputWords.summary(),
                    inputCharacters.summary(),
                    outputWords.summary(),
                    outputCharacters.summary(),
                    timed ? inputSum / duration : null,
                    serverView.result(),
                    sessions.result(gaps));
        }
    }

    /** One failure class's count, first {@link #SAMPLE_MESSAGES} distinct messages and timeout kinds. */
    private static final class FailureTally {

        private final Set<String> samples = new LinkedHashSet<>();
        private final Map<String, Long> byKind = new LinkedHashMap<>();
        private long count;

        void add(Outcome.Failure failure) {
            count++;
            if (samples.size() < SAMPLE_MESSAGES && failure.message() != null) {
                samples.add(failure.message());
            }
            if (failure.timeoutKind() != null) {
                byKind.merge(failure.timeoutKind().key(), 1L, Long::sum);
            }
        }

        ErrorClassSummary summary(long measured) {
            return new ErrorClassSummary(
                    count,
                    (double) count / measured,
                    List.copyOf(samples),
                    byKind.isEmpty() ? null : new LinkedHashMap<>(byKind));
        }
    }

    private static Double rate(long part, long whole) {
        return whole == 0 ? null : (double) part / whole;
    }

    private static void addIfKnown(DistributionAccumulator list, int count) {
        if (count != TextCounts.UNKNOWN) {
            list.add(count);
        }
    }

    private static void addIfPresent(DistributionAccumulator list, Double value) {
        if (value != null) {
            list.add(value);
        }
    }
}
