package dev.llmload.telemetry.analysis;

/**
 * The client-side numbers the telemetry notes compare the server with; {@code null} when unknown.
 *
 * @param ttftP50Ms        client TTFT p50 over successful requests, ms
 * @param promptTokens     Σ input tokens of the measured requests the server began to answer
 *                         (succeeded, or failed after a first token)
 * @param generationTokens Σ output tokens of the measured requests, those a failed request
 *                         received before it failed included
 * @param latencyP99Ms     client end-to-end latency p99, ms
 * @param highLatencyMs    latency p99 above which the run counts as slow (the e2e SLO when one is
 *                         given; {@link #DEFAULT_HIGH_LATENCY_MS} otherwise)
 * @param closedLoop       the load was a closed loop: the client itself holds the requests in
 *                         flight to its concurrency, so the server's waiting queue is bounded by it
 *                         and cannot grow past what the client chose
 */
public record ClientFigures(
        Double ttftP50Ms,
        Long promptTokens,
        Long generationTokens,
        Double latencyP99Ms,
        double highLatencyMs,
        boolean closedLoop) {

    public static final double DEFAULT_HIGH_LATENCY_MS = 5000;
}
