/**
 * Watching a run while it goes: {@link dev.llmload.live.LiveMetrics} keeps what the finished
 * requests, the in-flight set, the event loops' lag probes and the server's newest scrape say, and
 * publishes it once a second as an immutable {@link dev.llmload.live.LiveSnapshot}; the terminal
 * view (llmload-cli) draws it, and {@link dev.llmload.live.MetricsEndpoint} serves it in
 * Prometheus's text format ({@link dev.llmload.live.PrometheusExposition}) at {@code /metrics}.
 * docs/live.md describes every figure and metric.
 *
 * <p>Threads: the recorder thread ({@code llmload-recorder}) only appends a compact entry per
 * finished request to a lock-free queue; {@code llmload-live} owns every counter, histogram and
 * window and is the only thread that asks the run's sources (the in-flight set's size, the lag
 * probes' maxima, the telemetry's newest reading, all lock-free reads); the endpoint's thread
 * ({@code llmload-live-metrics}) reads the published snapshot and formats it. No event loop runs
 * any of this code, and nothing here waits on one.
 */
package dev.llmload.live;
