/**
 * Request sources: synthetic requests, JSONL and ShareGPT datasets, Mooncake-style traces, shared
 * prefixes. Files are checked whole before any load and then read lazily, one entry at a time.
 * A source belongs to the thread that pulls from it ({@code llmload-prepare} during a run).
 */
package dev.llmload.workload.source;
