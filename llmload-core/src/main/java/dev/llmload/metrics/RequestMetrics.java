package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TokenEventsView;

/**
 * The per-request metrics of DESIGN.md §3, derived from one {@link RequestRecord}. All values in
 * milliseconds; {@code null} where a metric is not defined for the request (TTFT of a
 * non-streamed request, TPOT with fewer than two output tokens). Pure arithmetic.
 *
 * @param ttftMs          first token-bearing event (content or reasoning) minus the send
 * @param ttfcMs          first event carrying answer content minus the send
 * @param e2eMs           last token-bearing event minus the send (end of the response when not streamed)
 * @param tpotMs          (E2E − TTFT) / (output tokens − 1)
 * @param clientQueueMs   actual send minus intended send (waiting at the gate or behind the schedule)
 * @param ttftFromIntendedMs TTFT measured from the intended send: what a user arriving on schedule felt
 * @param e2eFromIntendedMs  E2E measured from the intended send
 * @param outputTokensPerSecondPerUser (output tokens − 1) / (E2E − TTFT) in tokens per second, i.e.
 *                      1000 / TPOT: the decode speed one user sees once the first token is in,
 *                      AIPerf's and GenAI-Perf's {@code output_token_throughput_per_user} (1 / ITL
 *                      in seconds); null where TPOT is, or when the tokens came all at once
 *
 * <p>The time to second token ({@link #timeToSecondTokenNanos}) needs the token events, which a
 * record kept without its gaps ({@link RequestRecord#withoutTokenGaps}) no longer has.
 */
public record RequestMetrics(
        Double ttftMs,
        Double ttfcMs,
        Double e2eMs,
        Double tpotMs,
        double clientQueueMs,
        Double ttftFromIntendedMs,
        Double e2eFromIntendedMs,
        Double outputTokensPerSecondPerUser) {

    private static final double NANOS_PER_MS = 1_000_000.0;

    public static RequestMetrics of(RequestRecord record) {
        RequestTimings timings = record.timings();
        long sent = timings.sentNanos();
        Double ttft = record.streamed() && timings.firstTokenNanos() >= 0 ? ms(timings.firstTokenNanos() - sent) : null;
        Double ttfc =
                record.streamed() && timings.firstContentNanos() >= 0 ? ms(timings.firstContentNanos() - sent) : null;
        long last = record.streamed() ? timings.lastTokenNanos() : timings.endNanos();
        Double e2e = last >= 0 ? ms(last - sent) : null;
        Double tpot = null;
        if (ttft != null && e2e != null && record.outputTokens() > 1) {
            tpot = (e2e - ttft) / (record.outputTokens() - 1);
        }
        double queue = ms(sent - timings.intendedSendNanos());
        Double perUser = tpot == null || tpot <= 0 ? null : 1000.0 / tpot;
        return new RequestMetrics(
                ttft,
                ttfc,
                e2e,
                tpot,
                queue,
                ttft == null ? null : ttft + queue,
                e2e == null ? null : e2e + queue,
                perUser);
    }

    /**
     * The time to second token (TTST) in nanoseconds: the second token-bearing stream event minus
     * the first, as AIPerf and GenAI-Perf define it ({@code content_responses[1] −
     * content_responses[0]}), so the first inter-token gap of the request, the one a user waits
     * after the first token while the server takes the request into its decode batch;
     * {@link RequestTimings#NEVER} with fewer than two events.
     */
    public static long timeToSecondTokenNanos(TokenEventsView events) {
        return events.events() < 2 ? RequestTimings.NEVER : events.timeNanos(1) - events.timeNanos(0);
    }

    /**
     * Hands this request's inter-token gaps to {@code gaps}: one per token-bearing event after the
     * first, with the tokens that event carried (at least 1). The two ITL views: per event (each
     * gap once) and per token (an event carrying k tokens after a gap g counts as k gaps of g / k).
     */
    public static void collectInterTokenLatencies(RequestRecord record, Gaps gaps) {
        collectInterTokenLatencies(TokenEventsView.of(record), gaps);
    }

    /** {@link #collectInterTokenLatencies(RequestRecord, Gaps)} of a request's token events as a pass reads them. */
    public static void collectInterTokenLatencies(TokenEventsView events, Gaps gaps) {
        for (int i = 1; i < events.events(); i++) {
            gaps.gap(events.timeNanos(i) - events.timeNanos(i - 1), Math.max(1, events.tokens(i)));
        }
    }

    /** Where {@link #collectInterTokenLatencies} hands the gaps. */
    @FunctionalInterface
    public interface Gaps {
        void gap(long gapNanos, int tokens);
    }

    static double ms(long nanos) {
        return nanos / NANOS_PER_MS;
    }
}
