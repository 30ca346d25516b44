package dev.llmload.tokenizers;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A HuggingFace {@code tokenizer.json} loaded from a local file and run by DJL's binding of the
 * Rust {@code tokenizers} library. The native library ships inside the DJL jar for the common
 * platforms and is unpacked to DJL's cache directory on first use, so no network is needed there.
 *
 * <p>The native tokenizer is held for the life of the process: a run loads one and uses it to
 * the end, so there is no close to forget.
 */
final class HuggingFaceFileTokenizer implements Tokenizer {

    // Counts are of the text alone (see Tokenizer): no BOS/EOS, and never cut or padded.
    private static final Map<String, String> OPTIONS =
            Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false");

    private final String name;
    private final HuggingFaceTokenizer tokenizer;

    private HuggingFaceFileTokenizer(String name, HuggingFaceTokenizer tokenizer) {
        this.name = name;
        this.tokenizer = tokenizer;
    }

    /**
     * Loads {@code file}.
     *
     * @throws IllegalArgumentException when the file cannot be read or is not a tokenizer.json
     * @throws IllegalStateException when DJL's native library cannot be loaded on this machine
     */
    static HuggingFaceFileTokenizer load(Path file) {
        try {
            return new HuggingFaceFileTokenizer(file.toString(), HuggingFaceTokenizer.newInstance(file, OPTIONS));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot load tokenizer " + file + ": " + oneLine(e.getMessage()), e);
        } catch (UnsatisfiedLinkError e) {
            throw new IllegalStateException(
                    "cannot load the native HuggingFace tokenizers library (DJL) on this"
                            + " platform; use a tiktoken encoding such as cl100k_base instead: "
                            + oneLine(e.getMessage()),
                    e);
        }
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int count(String text) {
        return tokenizer.encode(text, false, false).getIds().length;
    }

    @Override
    public int[] encode(String text) {
        long[] ids = tokenizer.encode(text, false, false).getIds();
        int[] tokens = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            tokens[i] = Math.toIntExact(ids[i]);
        }
        return tokens;
    }

    @Override
    public String decode(int[] tokens) {
        long[] ids = new long[tokens.length];
        for (int i = 0; i < tokens.length; i++) {
            ids[i] = tokens[i];
        }
        return tokenizer.decode(ids, false);
    }

    @Override
    public String toString() {
        return name;
    }
}
