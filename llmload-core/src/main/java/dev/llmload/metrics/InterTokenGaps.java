package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TokenEventsView;
import dev.llmload.stats.DistributionAccumulator;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The inter-token gaps of a run's measured, successful requests, pooled as records stream past
 * (the ITL distributions of {@link RunResults}), in the bounded memory of their accumulators: the
 * one part of the results that needs each record's token events, so the records themselves can be
 * kept without them ({@link RequestRecord#withoutTokenGaps}); beside them, the per-event gaps of
 * session turns by turn number ({@link SessionCounts}). Owned by one thread; parts filled on other
 * threads merge in ({@link #newPart}).
 */
public final class InterTokenGaps {

    /**
     * The gaps before one-token events, the same value in both views, added once; and the gaps
     * before events of several tokens, once as they are and once spread over the tokens. Each view
     * is the union of two of these, formed when asked for: a gap costs one accumulator addition in
     * the common case instead of two, and the union is exact (every accumulator merges exactly).
     */
    private final DistributionAccumulator oneToken;

    private final DistributionAccumulator severalTokens;
    private final DistributionAccumulator severalTokensSpread;
    /** Each request's first gap: its time to second token ({@link RequestMetrics#timeToSecondTokenNanos}). */
    private final DistributionAccumulator secondToken;

    /** Per-event gaps of session turns by turn number, the last row pooling later turns. */
    private final Map<Integer, DistributionAccumulator> byTurn = new TreeMap<>();
    /** Whether this is a part: its turn rows are made as parts too. */
    private final boolean part;

    private DistributionAccumulator perEvent;
    private DistributionAccumulator perToken;

    public InterTokenGaps() {
        this(
                new DistributionAccumulator(),
                new DistributionAccumulator(),
                new DistributionAccumulator(),
                new DistributionAccumulator(),
                false);
    }

    private InterTokenGaps(
            DistributionAccumulator oneToken,
            DistributionAccumulator severalTokens,
            DistributionAccumulator severalTokensSpread,
            DistributionAccumulator secondToken,
            boolean part) {
        this.oneToken = oneToken;
        this.severalTokens = severalTokens;
        this.severalTokensSpread = severalTokensSpread;
        this.secondToken = secondToken;
        this.part = part;
    }

    /**
     * Gaps of a part of the records, to be {@link #merge merged} into these ({@link
     * DistributionAccumulator#part}): filled on a thread of its own, merged in any order, the same figures.
     */
    public InterTokenGaps newPart() {
        return new InterTokenGaps(
                oneToken.newPart(),
                severalTokens.newPart(),
                severalTokensSpread.newPart(),
                secondToken.newPart(),
                true);
    }

    /** Adds the gaps of {@code part}. */
    public void merge(InterTokenGaps part) {
        oneToken.merge(part.oneToken);
        severalTokens.merge(part.severalTokens);
        severalTokensSpread.merge(part.severalTokensSpread);
        secondToken.merge(part.secondToken);
        part.byTurn.forEach((turn, gaps) -> turnRow(turn).merge(gaps));
        perEvent = null;
        perToken = null;
    }

    /** Adds one request's gaps, when it is measured and succeeded; warm-up and failed ones add none. */
    public void add(TokenEventsView record) {
        if (!record.warmup() && record.succeeded()) {
            DistributionAccumulator turn =
                    record.turn() == 0 ? null : turnRow(Math.min(record.turn(), SessionCounts.LAST_TURN_ROW));
            RequestMetrics.collectInterTokenLatencies(record, (gapNanos, tokens) -> {
                if (turn != null) {
                    turn.addNanosAsMillis(gapNanos);
                }
                if (tokens == 1) {
                    oneToken.addNanosAsMillis(gapNanos, 1);
                } else {
                    severalTokens.addNanosAsMillis(gapNanos, 1);
                    severalTokensSpread.addNanosAsMillis(gapNanos, tokens);
                }
            });
            long ttstNanos = RequestMetrics.timeToSecondTokenNanos(record);
            if (ttstNanos != RequestTimings.NEVER) {
                secondToken.addNanosAsMillis(ttstNanos);
            }
            perEvent = null;
            perToken = null;
        }
    }

    public static InterTokenGaps of(List<RequestRecord> records) {
        InterTokenGaps gaps = new InterTokenGaps();
        records.forEach(record -> gaps.add(TokenEventsView.of(record)));
        return gaps;
    }

    /**
     * The per-event gaps of session turns by turn number ({@code results.sessions.by_turn[].itl_ms}):
     * every gap of every successful turn of that number, pooled; turn {@link
     * SessionCounts#LAST_TURN_ROW} holds later turns too.
     */
    public Map<Integer, DistributionAccumulator> perEventByTurn() {
        return Collections.unmodifiableMap(byTurn);
    }

    private DistributionAccumulator turnRow(int turn) {
        return byTurn.computeIfAbsent(
                turn,
                t -> part
                        ? DistributionAccumulator.part(
                                SessionCounts.ROW_EXACT_CAPACITY, DistributionAccumulator.DEFAULT_RELATIVE_ERROR)
                        : new DistributionAccumulator(
                                SessionCounts.ROW_EXACT_CAPACITY, DistributionAccumulator.DEFAULT_RELATIVE_ERROR));
    }

    /** One gap per token-bearing event after the first ({@code itl_ms}). */
    public DistributionAccumulator perEvent() {
        if (perEvent == null) {
            perEvent = union(oneToken, severalTokens);
        }
        return perEvent;
    }

    /** The same gaps spread over the tokens each event carried ({@code itl_per_token_ms}). */
    public DistributionAccumulator perToken() {
        if (perToken == null) {
            perToken = union(oneToken, severalTokensSpread);
        }
        return perToken;
    }

    /** Each measured, successful request's time to second token ({@code ttst_ms}). */
    public DistributionAccumulator secondToken() {
        return secondToken;
    }

    private static DistributionAccumulator union(DistributionAccumulator a, DistributionAccumulator b) {
        DistributionAccumulator union = new DistributionAccumulator();
        union.merge(a);
        union.merge(b);
        return union;
    }
}
