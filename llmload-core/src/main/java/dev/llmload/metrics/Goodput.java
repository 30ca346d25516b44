package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import java.util.List;

/**
 * {@code results.goodput}: how much of the run met the {@link Slo}, over the measured
 * (non-warm-up) requests. Pure arithmetic.
 *
 * @param slo                   the limits checked
 * @param met                   requests that succeeded and met every limit
 * @param attempted             measured requests, failed ones included
 * @param metShare              met / attempted; null when nothing was attempted
 * @param requestGoodput        met / the run's duration, in requests per second; null without a duration
 * @param outputTokenGoodput    output tokens of the requests that met the SLO / duration, per second
 */
public record Goodput(Slo slo, long met, long attempted, Double metShare, Double requestGoodput,
                      Double outputTokenGoodput) {

    /**
     * @param durationS the run's duration ({@link RunResults#durationS()}), so goodput and
     *                  throughput share a denominator; null or 0 when nothing was timed
     */
    public static Goodput compute(List<RequestRecord> all, Slo slo, Double durationS) {
        long attempted = 0;
        long met = 0;
        long tokens = 0;
        for (RequestRecord record : all) {
            if (record.warmup()) {
                continue;
            }
            attempted++;
            if (slo.isMetBy(record.succeeded(), RequestMetrics.of(record))) {
                met++;
                tokens += record.outputTokens();
            }
        }
        boolean timed = durationS != null && durationS > 0;
        return new Goodput(slo, met, attempted,
                attempted == 0 ? null : (double) met / attempted,
                timed ? met / durationS : null,
                timed ? tokens / durationS : null);
    }
}
