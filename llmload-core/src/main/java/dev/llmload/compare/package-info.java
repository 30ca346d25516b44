/**
 * {@code llmload compare}: runs side by side against a baseline, with bootstrap confidence
 * intervals from the journals, fairness checks and {@code --fail-if} thresholds. Reads finished
 * run directories ({@code report.RunDirectory}); pure arithmetic on the caller's thread.
 */
package dev.llmload.compare;
