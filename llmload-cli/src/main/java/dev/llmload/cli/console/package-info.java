/**
 * The end-of-run summary printed to the terminal ({@code ConsoleSummary}), rendered from a
 * {@code RunReport} by {@code run}, {@code report} and {@code merge}. It imports the core's
 * {@code report} and what a report holds, and nothing of {@code dev.llmload.cli}, which imports it.
 *
 * <p>Threads: the caller's; everything here is stateless.
 */
package dev.llmload.cli.console;
