/**
 * The flat files of a run directory beside {@code report.json}: {@code summary.csv}
 * ({@code SummaryCsv}), {@code timeseries.csv} ({@code TimeSeriesCsv}) and the vLLM-compatible
 * export ({@code VllmExport}), each a pure function of the report (and, for the export, the
 * records).
 *
 * <p>Threads: the caller's; everything here is stateless.
 */
package dev.llmload.report.format;
