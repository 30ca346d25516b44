package dev.llmload.telemetry.engine;

import dev.llmload.telemetry.prometheus.Histogram;

/**
 * The engine-independent signals read from one scrape of a server's metrics. Any field is
 * {@code null} when the engine does not expose it. Counters and histograms are cumulative
 * since the server started; only differences between scrapes mean anything.
 *
 * @param kvCacheUsage       KV-cache use, 0–1 (mean over data-parallel engines)
 * @param requestsRunning    requests in the running batch (summed over engines)
 * @param requestsWaiting    requests queued in the server (summed over engines)
 * @param preemptions        counter: requests preempted (SGLang: retracted)
 * @param prefixCacheHits    counter: prompt tokens found in the prefix cache
 * @param prefixCacheQueries counter: prompt tokens looked up in the prefix cache
 * @param promptTokens       counter: prompt tokens processed
 * @param generationTokens   counter: tokens generated
 * @param requestsSucceeded  counter: requests finished without abort or failure
 * @param queueTime          histogram, seconds, of time spent waiting in the server
 *                           (Triton: a single {@code +Inf} bucket, so only a mean)
 * @param timeToFirstToken   histogram, seconds, as the server measured it
 * @param interTokenLatency  histogram, seconds (TGI: per-request mean time per token)
 */
public record ServerSignals(
        Double kvCacheUsage,
        Double requestsRunning,
        Double requestsWaiting,
        Double preemptions,
        Double prefixCacheHits,
        Double prefixCacheQueries,
        Double promptTokens,
        Double generationTokens,
        Double requestsSucceeded,
        Histogram queueTime,
        Histogram timeToFirstToken,
        Histogram interTokenLatency) {

    /** Nothing known: a scrape of a server whose kind was not recognised. */
    public static final ServerSignals NONE =
            new ServerSignals(null, null, null, null, null, null, null, null, null, null, null, null);
}
