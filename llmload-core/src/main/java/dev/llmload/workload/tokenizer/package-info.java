/**
 * Tokenizers for counting and making prompts: tiktoken encodings built in, a model's
 * {@code tokenizer.json} through the optional {@code llmload-tokenizers} jar found by
 * {@link java.util.ServiceLoader}. A tokenizer is used by {@code llmload-prepare} and by
 * {@code llmload-recorder} (local token counts); implementations are thread-safe.
 */
package dev.llmload.workload.tokenizer;
