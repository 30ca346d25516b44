/**
 * {@code llmload merge}: one run directory made from the segment directories of a run split over
 * several processes ({@code SegmentMerge}), derived by the same end-of-run derivation as a single
 * run.
 *
 * <p>Threads: the caller's, for the length of one merge; nothing here is shared.
 */
package dev.llmload.report.merge;
