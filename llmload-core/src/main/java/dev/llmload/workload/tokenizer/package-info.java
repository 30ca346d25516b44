/**
 * Tokenizers for counting and making prompts: tiktoken encodings built in, a model's
 * {@code tokenizer.json} through the optional {@code llmload-tokenizers} jar found by
 * {@link java.util.ServiceLoader}. A tokenizer is used by {@code llmload-prepare}, by the
 * recorder's counting threads ({@code llmload-count-N}, local token counts) and by the run's own
 * thread (multi-turn sessions' turns, and a synthetic source's words for {@code run.json});
 * implementations are thread-safe, and a built-in encoding reads its vocabulary on whichever of
 * them comes first.
 */
package dev.llmload.workload.tokenizer;
