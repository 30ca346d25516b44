/**
 * One run spread over many hosts, as arithmetic: which part of the run a segment sends
 * ({@link dev.llmload.segment.Segment}, {@link dev.llmload.segment.SegmentSchedule}), how its
 * requests are named ({@link dev.llmload.segment.RequestId}), when it starts
 * ({@link dev.llmload.segment.StartAt}, {@link dev.llmload.segment.StartGate}) and what the host
 * says about its clock ({@link dev.llmload.segment.ClockSyncProbe}). It knows nothing of runs,
 * reports or the command line, which build on it.
 */
package dev.llmload.segment;
