package dev.llmload.analysis;

import dev.llmload.config.Load;
import dev.llmload.metrics.RunResults;

/**
 * What the {@link NoteRule}s read of a run with at least one measured request: the requests'
 * times and tally (each fed every record, warm-up included, in the same order) and what was
 * derived from the same records.
 *
 * @param times           every request's times
 * @param measured        the positions of the measured (non-warm-up) requests in {@code times}, in
 *                        order of intended send; never empty
 * @param startNanos      the intended send of the first measured request: times in messages are
 *                        seconds from it
 * @param tally           what the rules count as the records stream past
 * @param results         computed from the same records
 * @param load            the load as configured: the schedule rule applies to open loops only
 * @param sessionGate     {@code --max-sessions} of an open-loop session run (null otherwise): a
 *                        session start that found it full waited, which is not lag
 * @param streamRequested the requests asked for a stream: a success answered in one body means
 *                        the server ignored that
 * @param saturation      {@link Saturation#of} the same records; may be null
 * @param steadyState     {@link SteadyState#of} the same records; may be null
 */
record MeasuredRun(
        RequestTimes times,
        int[] measured,
        long startNanos,
        NoteDetector.Tally tally,
        RunResults results,
        Load load,
        Integer sessionGate,
        boolean streamRequested,
        Saturation saturation,
        SteadyState steadyState) {}
