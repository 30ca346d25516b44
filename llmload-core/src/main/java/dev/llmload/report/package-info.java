/**
 * A run's record and its one end-of-run derivation: {@code report.json} ({@code RunReport}, with
 * {@code ClientHost} and {@code Efficiency}), {@code Measurements}, which every path to a report
 * calls (the live run, the rebuild from a journal, the merge of segments), and what the page shows
 * of the requests ({@code RunPage}, {@code RequestColumns}, {@code PercentileSpectrum}); the file
 * names, the JSON mapper and the atomic write ({@code ReportFiles}); finished run directories read
 * back ({@code RunDirectory}, {@code RunGroup}).
 *
 * <p>Its sub-packages sit above it and never below: {@code report.format} (the CSV files and the
 * vLLM export), {@code report.html} (the page), {@code report.write} (a whole run directory
 * written, and rebuilt from its journal) and {@code report.merge} (segments merged into one run).
 * The terminal summary is the CLI's ({@code dev.llmload.cli.console}, llmload-cli), rendered from
 * a {@code RunReport}.
 *
 * <p>Threads: the caller's, at the end of a run or of a command; nothing here is shared.
 */
package dev.llmload.report;
