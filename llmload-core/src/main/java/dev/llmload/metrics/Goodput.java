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
public record Goodput(
        Slo slo, long met, long attempted, Double metShare, Double requestGoodput, Double outputTokenGoodput) {

    /**
     * @param durationS the run's duration ({@link RunResults#durationS()}), so goodput and
     *                  throughput share a denominator; null or 0 when nothing was timed
     */
    public static Goodput compute(List<RequestRecord> all, Slo slo, Double durationS) {
        Tally tally = new Tally(slo);
        all.forEach(tally::add);
        return tally.result(durationS);
    }

    /** Goodput counted as records stream past, in constant memory. Owned by one thread. */
    public static final class Tally {

        private final Slo slo;
        private long attempted;
        private long met;
        private long tokens;

        public Tally(Slo slo) {
            this.slo = slo;
        }

        /** Counts one record; warm-up ones count nowhere. */
        public void add(RequestRecord record) {
            if (record.warmup()) {
                return;
            }
            attempted++;
            if (slo.isMetBy(record.succeeded(), RequestMetrics.of(record))) {
                met++;
                tokens += record.outputTokens();
            }
        }

        /** @param durationS as for {@link Goodput#compute} */
        public Goodput result(Double durationS) {
            boolean timed = durationS != null && durationS > 0;
            return new Goodput(
                    slo,
                    met,
                    attempted,
                    attempted == 0 ? null : (double) met / attempted,
                    timed ? met / durationS : null,
                    timed ? tokens / durationS : null);
        }
    }
}
