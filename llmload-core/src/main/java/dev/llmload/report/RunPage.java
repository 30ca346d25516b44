package dev.llmload.report;

import dev.llmload.metrics.InterTokenGaps;
import dev.llmload.metrics.RequestMetrics;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TokenEventsView;
import dev.llmload.stats.DistributionAccumulator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What report.html shows of a run's requests beside its report: the requests one by one (at most
 * {@link RequestColumns#MAX_SHOWN} of them) and the percentile spectra of TTFT, ITL, TPOT and E2E
 * latency over the measured, successful requests (the population of the report's summaries).
 * Taken in the derivation's pass over the records, in bounded memory: the spectra come from
 * {@link DistributionAccumulator}s, exact up to their capacity and within their stated error
 * beyond (then marked not exact).
 *
 * @param requests the requests as the page's columns
 * @param spectra  by the summary's key, in this order: ttft_ms, itl_ms, tpot_ms, e2e_latency_ms
 */
public record RunPage(RequestColumns requests, Map<String, PercentileSpectrum> spectra) {

    /** The page data of records with their token events. */
    public static RunPage of(List<RequestRecord> records) {
        Builder builder = new Builder(records.size());
        InterTokenGaps gaps = new InterTokenGaps();
        for (RequestRecord record : records) {
            builder.add(record);
            gaps.add(TokenEventsView.of(record));
        }
        return builder.build(PercentileSpectrum.of(gaps.perEvent()));
    }

    /** The page data being taken from a stream of records. Owned by one thread. */
    static final class Builder {

        private final RequestColumns.Builder requests;
        private final DistributionAccumulator ttft = new DistributionAccumulator();
        private final DistributionAccumulator tpot = new DistributionAccumulator();
        private final DistributionAccumulator e2e = new DistributionAccumulator();

        /** @param total how many records will be added */
        Builder(long total) {
            requests = new RequestColumns.Builder(total);
        }

        void add(RequestRecord record) {
            requests.add(record);
            if (record.warmup() || !record.succeeded()) {
                return;
            }
            RequestMetrics metrics = RequestMetrics.of(record);
            addIfPresent(ttft, metrics.ttftMs());
            addIfPresent(tpot, metrics.tpotMs());
            addIfPresent(e2e, metrics.e2eMs());
        }

        /** @param itl the inter-token gaps' spectrum, from the derivation's own gaps */
        RunPage build(PercentileSpectrum itl) {
            // In this order on every run: Map.of's order changes from one JVM to the next, and so did report.html's
            // bytes.
            Map<String, PercentileSpectrum> spectra = new LinkedHashMap<>();
            spectra.put("ttft_ms", PercentileSpectrum.of(ttft));
            spectra.put("itl_ms", itl);
            spectra.put("tpot_ms", PercentileSpectrum.of(tpot));
            spectra.put("e2e_latency_ms", PercentileSpectrum.of(e2e));
            return new RunPage(requests.build(), Collections.unmodifiableMap(spectra));
        }

        private static void addIfPresent(DistributionAccumulator values, Double value) {
            if (value != null) {
                values.add(value);
            }
        }
    }
}
