package dev.llmload.workload.tokenizer;

import java.nio.file.Path;

/**
 * Reads a model's own tokenizer file. The one implementation, for HuggingFace
 * {@code tokenizer.json}, lives in the optional {@code llmload-tokenizer-hf} jar because its
 * native library is most of a runnable jar's size; {@link Tokenizers} finds it with
 * {@link java.util.ServiceLoader} only when a file is named, so runs with a tiktoken encoding
 * never load it.
 *
 * <p>Implementations have a public no-argument constructor and are listed in
 * {@code META-INF/services/dev.llmload.workload.tokenizer.TokenizerFileLoader}.
 */
public interface TokenizerFileLoader {

    /**
     * Loads {@code file}, an existing regular file.
     *
     * @throws IllegalArgumentException with a one-line message when the file is not a tokenizer
     * @throws IllegalStateException with a one-line message when the loader cannot run here
     */
    Tokenizer load(Path file);
}
