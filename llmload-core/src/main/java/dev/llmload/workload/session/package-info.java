/**
 * Sessions: chains of turns in which each turn carries the history with the model's real answers.
 * Synthetic chat sessions ({@code --sessions}: their plan and seeded source) and session traces
 * (llmload's JSONL format, with tool waits, timestamps and subagents that fork from a parent's
 * answer, and AIPerf's {@code mooncake_trace} sessions and {@code multi_turn} files read into the
 * same sessions). Owned by the session dispatcher's thread.
 */
package dev.llmload.workload.session;
