package dev.llmload.metrics;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.stats.DistributionAccumulator;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
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
        Summary e2eLatencyMs,
        Summary clientQueueTimeMs,
        Summary ttftFromIntendedMs,
        Summary e2eFromIntendedMs,
        Summary inputTokens,
        Summary outputTokens,
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
        List<RequestRecord> measured = all.stream().filter(r -> !r.warmup()).toList();
        long attempted = measured.size();
        long succeeded = measured.stream().filter(RequestRecord::succeeded).count();
        long timedOut = measured.stream().filter(RequestRecord::timedOut).count();
        long failed = attempted - succeeded;

        Double duration = null;
        if (!measured.isEmpty()) {
            long start = measured.stream().mapToLong(r -> r.timings().intendedSendNanos()).min().orElseThrow();
            long end = measured.stream().mapToLong(r -> r.timings().endNanos()).max().orElseThrow();
            duration = Math.max(0, end - start) / 1e9;
        }

        DistributionAccumulator ttft = new DistributionAccumulator();
        DistributionAccumulator ttfc = new DistributionAccumulator();
        DistributionAccumulator e2e = new DistributionAccumulator();
        DistributionAccumulator tpot = new DistributionAccumulator();
        DistributionAccumulator queue = new DistributionAccumulator();
        DistributionAccumulator ttftIntended = new DistributionAccumulator();
        DistributionAccumulator e2eIntended = new DistributionAccumulator();
        DistributionAccumulator inputTokens = new DistributionAccumulator();
        DistributionAccumulator outputTokens = new DistributionAccumulator();
        long outputSum = 0;
        long inputSum = 0;
        for (RequestRecord record : measured) {
            if (!record.succeeded()) {
                continue;
            }
            RequestMetrics metrics = RequestMetrics.of(record);
            addIfPresent(ttft, metrics.ttftMs());
            addIfPresent(ttfc, metrics.ttfcMs());
            addIfPresent(e2e, metrics.e2eMs());
            addIfPresent(tpot, metrics.tpotMs());
            addIfPresent(ttftIntended, metrics.ttftFromIntendedMs());
            addIfPresent(e2eIntended, metrics.e2eFromIntendedMs());
            queue.add(metrics.clientQueueMs());
            inputTokens.add(record.inputTokens());
            outputTokens.add(record.outputTokens());
            inputSum += record.inputTokens();
            outputSum += record.outputTokens();
        }
        boolean timed = duration != null && duration > 0;
        return new RunResults(
                new RequestCounts(attempted, succeeded, failed, timedOut),
                rate(succeeded, attempted),
                rate(failed, attempted),
                rate(timedOut, attempted),
                duration,
                timed ? succeeded / duration : null,
                timed ? outputSum / duration : null,
                timed ? (inputSum + outputSum) / duration : null,
                slo == null ? null : Goodput.compute(measured, slo, duration),
                errors(measured),
                ttft.summary(),
                ttfc.summary(),
                gaps.perEvent().summary(),
                gaps.perToken().summary(),
                tpot.summary(),
                e2e.summary(),
                queue.summary(),
                ttftIntended.summary(),
                e2eIntended.summary(),
                inputTokens.summary(),
                outputTokens.summary(),
                timed ? inputSum / duration : null,
                ServerView.of(measured),
                SessionCounts.of(measured));
    }

    private static Map<String, ErrorClassSummary> errors(List<RequestRecord> measured) {
        Map<FailureClass, List<Outcome.Failure>> byClass = new EnumMap<>(FailureClass.class);
        for (RequestRecord record : measured) {
            if (record.outcome() instanceof Outcome.Failure failure) {
                byClass.computeIfAbsent(failure.failureClass(), c -> new ArrayList<>()).add(failure);
            }
        }
        Map<String, ErrorClassSummary> result = new LinkedHashMap<>();
        byClass.forEach((failureClass, failures) -> {
            Set<String> samples = new LinkedHashSet<>();
            Map<String, Long> byKind = new LinkedHashMap<>();
            for (Outcome.Failure failure : failures) {
                if (samples.size() < SAMPLE_MESSAGES && failure.message() != null) {
                    samples.add(failure.message());
                }
                if (failure.timeoutKind() != null) {
                    byKind.merge(failure.timeoutKind().key(), 1L, Long::sum);
                }
            }
            result.put(failureClass.key(), new ErrorClassSummary(failures.size(),
                    (double) failures.size() / measured.size(), List.copyOf(samples),
                    byKind.isEmpty() ? null : byKind));
        });
        return result;
    }

    private static Double rate(long part, long whole) {
        return whole == 0 ? null : (double) part / whole;
    }

    private static void addIfPresent(DistributionAccumulator list, Double value) {
        if (value != null) {
            list.add(value);
        }
    }
}
