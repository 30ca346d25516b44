/**
 * A run directory's report files written whole: at the end of a run, and again from the journal
 * by {@code llmload report} ({@code RunRebuild}), so a run cut short still gets its report.
 *
 * <p>Threads: the caller's, at the end of a run or of a command; nothing here is shared.
 */
package dev.llmload.report.write;
