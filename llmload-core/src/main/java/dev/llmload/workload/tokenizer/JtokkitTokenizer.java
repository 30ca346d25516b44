package dev.llmload.workload.tokenizer;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.IntArrayList;
import java.util.function.Supplier;

/**
 * A tiktoken encoding (OpenAI's BPE vocabularies) run by jtokkit, fully offline.
 *
 * <p>The vocabulary is read on first use, not when the tokenizer is made: reading it (about
 * 100,000 entries for {@code cl100k_base}, a tenth of a CPU-second) is the largest piece of a
 * run's start-up, and a run first needs it on its feed's thread ({@code llmload-prepare}), which
 * starts once the test request has been sent. Whichever thread comes first reads it; the others
 * wait for it and then share it.
 */
final class JtokkitTokenizer implements Tokenizer {

    private final String name;
    private final Supplier<Encoding> vocabulary;
    /** Null until first use; then read and written only as a whole. */
    private volatile Encoding encoding;

    /** @param vocabulary reads the encoding; called once, on first use */
    JtokkitTokenizer(String name, Supplier<Encoding> vocabulary) {
        this.name = name;
        this.vocabulary = vocabulary;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int count(String text) {
        return encoding().countTokensOrdinary(text);
    }

    @Override
    public int[] encode(String text) {
        return encoding().encodeOrdinary(text).toArray();
    }

    @Override
    public String decode(int[] tokens) {
        IntArrayList list = new IntArrayList(tokens.length);
        for (int token : tokens) {
            list.add(token);
        }
        return encoding().decode(list);
    }

    private Encoding encoding() {
        Encoding read = encoding;
        if (read == null) {
            synchronized (this) {
                read = encoding;
                if (read == null) {
                    read = vocabulary.get();
                    encoding = read;
                }
            }
        }
        return read;
    }

    @Override
    public String toString() {
        return name;
    }
}
