package dev.llmload.tokenizers;

import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.TokenizerFileLoader;
import java.nio.file.Path;

/**
 * The {@link TokenizerFileLoader} this jar offers to llmload: a HuggingFace {@code tokenizer.json}
 * run by DJL's native binding. Found by {@link java.util.ServiceLoader} when the jar is on the
 * class path.
 */
public final class HuggingFaceTokenizerLoader implements TokenizerFileLoader {

    @Override
    public Tokenizer load(Path file) {
        return HuggingFaceFileTokenizer.load(file);
    }
}
