/**
 * The Prometheus text exposition format (0.0.4 and OpenMetrics 1.0) read leniently into typed
 * families, samples and histograms: a scrape target is someone else's server. Pure; any thread.
 */
package dev.llmload.telemetry.prometheus;
