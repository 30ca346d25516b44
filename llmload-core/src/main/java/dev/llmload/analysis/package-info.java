/**
 * Derivations from a run's request records beyond the headline results: the per-second time
 * series, how well the client kept its schedule, and the notes the tool writes by itself
 * ({@code NoteDetector}). Pure arithmetic on finished records; called once at the end of a run
 * and again by a rebuild, through {@code report.Measurements}.
 */
package dev.llmload.analysis;
