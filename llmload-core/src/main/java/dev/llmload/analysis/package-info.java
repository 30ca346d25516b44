/**
 * Derivations from a run's request records beyond the headline results: the per-second time
 * series, how well the client kept its schedule, and the notes the tool writes by itself
 * ({@code NoteDetector}). Pure arithmetic on finished records; called once at the end of a run
 * and again by a rebuild, through {@code report.Measurements}.
 *
 * <p>Each kind of note is a {@code NoteRule} of its own file ({@code RateLimitedRule},
 * {@code QueueingRule}, ...): what it detects, why a reader must know, and its threshold with its
 * unit. {@code NoteDetector} holds the list of rules, their order in the report, the kinds a
 * rebuild replaces, and the trend that two rules share; a rule reads a {@code MeasuredRun} and
 * writes its evidence through {@code NoteText}. The rules that count as records stream past
 * keep their counts in a nested {@code Count} that {@code NoteDetector.Tally} feeds.
 */
package dev.llmload.analysis;
