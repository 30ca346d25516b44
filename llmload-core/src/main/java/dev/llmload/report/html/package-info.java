/**
 * {@code report.html}: the self-contained page of a run, of a sweep of runs or of a comparison of
 * runs ({@code HtmlReport}), the template it fills ({@code PageTemplate}; the page's assets are the
 * resources under {@code dev/llmload/report/html/}), and what a sweep's or comparison's page is
 * handed ({@code LabeledRun}, {@code SweepMarkers}). Java gathers the data; {@code report.js}
 * draws it.
 *
 * <p>Threads: the caller's; everything here is stateless.
 */
package dev.llmload.report.html;
