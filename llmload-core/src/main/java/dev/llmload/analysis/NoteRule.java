package dev.llmload.analysis;

import dev.llmload.note.Note;
import java.util.Optional;

/**
 * One rule of {@link NoteDetector}: a kind of note llmload writes about a run by itself, the
 * condition that makes it, and the sentence with its evidence. Each rule looks only at the
 * measured requests ({@link MeasuredRun}) and stays silent on a clean run; docs/report.md lists
 * them. Pure arithmetic: a rule keeps no state, so a rebuilt report gets the same notes.
 */
sealed interface NoteRule
        permits SaturatedRule,
                NoSteadyStateRule,
                RateLimitedRule,
                OutOfMemoryRule,
                TimeoutsRule,
                QueueingRule,
                LatencyDriftRule,
                BehindScheduleRule,
                LowSampleCountRule,
                HighErrorRateRule,
                TargetUnreachableRule,
                StreamIgnoredRule,
                ServerClientDisagreeRule {

    /** The note's {@code kind} in {@code report.json}, snake_case. */
    String kind();

    /** The note about {@code run}, or empty where the rule does not fire. */
    Optional<Note> detect(MeasuredRun run);
}
