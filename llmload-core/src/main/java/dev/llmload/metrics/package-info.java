/**
 * A run's metrics as DESIGN.md §3 defines them: per-request metrics from a record, the run's
 * {@code results} (counts, rates, throughputs, one summary per distribution), goodput against a
 * per-request SLO and percentile SLOs on a whole run. Pure arithmetic on finished records; the
 * caller's thread.
 */
package dev.llmload.metrics;
