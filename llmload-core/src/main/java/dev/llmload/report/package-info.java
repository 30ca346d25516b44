/**
 * Everything a run directory holds and how it is written and read back: {@code report.json}
 * ({@code RunReport}), {@code summary.csv}, {@code timeseries.csv}, the vLLM-compatible export,
 * the self-contained {@code report.html} (its page assets are the resources beside this package),
 * the console summary; the one end-of-run derivation ({@code Measurements}) and the rebuild from a
 * journal ({@code RunRebuild}). Files are written atomically (temporary name, then rename).
 *
 * <p>Threads: the caller's, at the end of a run or of a command; nothing here is shared.
 */
package dev.llmload.report;
