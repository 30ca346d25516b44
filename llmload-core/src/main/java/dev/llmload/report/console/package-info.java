/**
 * The end-of-run summary printed to the terminal ({@code ConsoleSummary}), rendered from a
 * {@code RunReport}. Only the CLI prints it; it stays in the core module because the core's
 * loopback tests check what it renders for real runs against the simulator.
 *
 * <p>Threads: the caller's; everything here is stateless.
 */
package dev.llmload.report.console;
