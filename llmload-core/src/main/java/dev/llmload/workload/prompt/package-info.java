/**
 * Synthetic prompt text of an exact token count under a tokenizer. Deterministic from the seed;
 * used by the thread that makes requests ({@code llmload-prepare}).
 */
package dev.llmload.workload.prompt;
