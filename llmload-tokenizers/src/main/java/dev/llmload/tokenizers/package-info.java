/**
 * The optional tokenizers jar: a HuggingFace {@code tokenizer.json} run by DJL's native binding,
 * offered to llmload through {@link java.util.ServiceLoader}. Kept apart because its native
 * libraries are most of a runnable jar's size. Used by the threads that use any tokenizer.
 */
package dev.llmload.tokenizers;
