package dev.llmload.sim.metrics;

import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.TokenSink;

/**
 * Observes one request's timeline into {@link SimMetrics} with the engine's own timestamps, then
 * passes every call on. Threading: used on the engine's thread only, which owns its fields.
 */
public final class MetricsSink implements TokenSink {

    private final SimMetrics metrics;
    private final TokenSink next;
    private final long arrival;
    private long scheduled = -1;
    private long firstToken = -1;
    private long lastToken;
    private int tokens;

    public MetricsSink(SimMetrics metrics, long arrivalNanos, TokenSink next) {
        this.metrics = metrics;
        this.arrival = arrivalNanos;
        this.next = next;
    }

    @Override
    public void scheduled(long nanos) {
        observeScheduled(nanos);
        next.scheduled(nanos);
    }

    @Override
    public void scheduled(long nanos, int cachedPromptTokens) {
        observeScheduled(nanos);
        next.scheduled(nanos, cachedPromptTokens);
    }

    private void observeScheduled(long nanos) {
        // Only the first scheduling counts; a preempted request is scheduled again later.
        if (scheduled < 0) {
            scheduled = nanos;
            metrics.observeQueued(arrival, nanos);
        }
    }

    @Override
    public void tokens(int count, long nanos) {
        if (firstToken < 0) {
            firstToken = nanos;
            metrics.observeFirstToken(arrival, nanos);
        } else {
            metrics.observeTokenGap(nanos - lastToken);
        }
        lastToken = nanos;
        tokens += count;
        next.tokens(count, nanos);
    }

    @Override
    public void finished(FinishReason reason, long nanos) {
        long scheduledAt = scheduled < 0 ? nanos : scheduled;
        metrics.observeFinished(new SimMetrics.Timeline(arrival, scheduledAt, firstToken, lastToken, tokens, reason));
        next.finished(reason, nanos);
    }
}
