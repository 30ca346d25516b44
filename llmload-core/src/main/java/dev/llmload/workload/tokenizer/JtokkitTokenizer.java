package dev.llmload.workload.tokenizer;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.IntArrayList;

/** A tiktoken encoding (OpenAI's BPE vocabularies) run by jtokkit, fully offline. */
final class JtokkitTokenizer implements Tokenizer {

    private final String name;
    private final Encoding encoding;

    JtokkitTokenizer(String name, Encoding encoding) {
        this.name = name;
        this.encoding = encoding;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int count(String text) {
        return encoding.countTokensOrdinary(text);
    }

    @Override
    public int[] encode(String text) {
        return encoding.encodeOrdinary(text).toArray();
    }

    @Override
    public String decode(int[] tokens) {
        IntArrayList list = new IntArrayList(tokens.length);
        for (int token : tokens) {
            list.add(token);
        }
        return encoding.decode(list);
    }

    @Override
    public String toString() {
        return name;
    }
}
