package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import dev.llmload.stats.DistributionAccumulator;
import java.util.List;

/**
 * The inter-token gaps of a run's measured, successful requests, pooled as records stream past
 * (the ITL distributions of {@link RunResults}), in the bounded memory of their accumulators: the
 * one part of the results that needs each record's token events, so the records themselves can be
 * kept without them ({@link RequestRecord#withoutTokenGaps}). Owned by one thread; parts filled
 * on other threads merge in ({@link #newPart}).
 */
public final class InterTokenGaps {

    private final DistributionAccumulator perEvent;
    private final DistributionAccumulator perToken;

    public InterTokenGaps() {
        this(new DistributionAccumulator(), new DistributionAccumulator());
    }

    private InterTokenGaps(DistributionAccumulator perEvent, DistributionAccumulator perToken) {
        this.perEvent = perEvent;
        this.perToken = perToken;
    }

    /**
     * Gaps of a part of the records, to be {@link #merge merged} into these ({@link
     * DistributionAccumulator#part}): filled on a thread of its own, merged in any order, the same figures.
     */
    public InterTokenGaps newPart() {
        return new InterTokenGaps(perEvent.newPart(), perToken.newPart());
    }

    /** Adds the gaps of {@code part}. */
    public void merge(InterTokenGaps part) {
        perEvent.merge(part.perEvent);
        perToken.merge(part.perToken);
    }

    /** Adds one record's gaps, when it is measured and succeeded; warm-up and failed ones add none. */
    public void add(RequestRecord record) {
        if (!record.warmup() && record.succeeded()) {
            RequestMetrics.collectInterTokenLatencies(record, perEvent, perToken);
        }
    }

    public static InterTokenGaps of(List<RequestRecord> records) {
        InterTokenGaps gaps = new InterTokenGaps();
        records.forEach(gaps::add);
        return gaps;
    }

    /** One gap per token-bearing event after the first ({@code itl_ms}). */
    public DistributionAccumulator perEvent() {
        return perEvent;
    }

    /** The same gaps spread over the tokens each event carried ({@code itl_per_token_ms}). */
    public DistributionAccumulator perToken() {
        return perToken;
    }
}
