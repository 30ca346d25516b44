package dev.llmload.sim.server;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The generated text: one short word per token, either from a fixed vocabulary (each word a single
 * cl100k_base token) or, in echo mode, cycling through the prompt's words so a test can see what
 * the server received. Immutable.
 */
final class Words {

    private static final String[] VOCABULARY = {
        " the", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", " and", " runs", " away"
    };
    private static final byte[][] VOCABULARY_JSON =
            Arrays.stream(VOCABULARY).map(Words::jsonEscaped).toArray(byte[][]::new);
    static final Words DEFAULT = new Words(null);

    private final String[] echoed;

    private Words(String[] echoed) {
        this.echoed = echoed;
    }

    /** Echo words of {@code prompt}, or the vocabulary when the prompt has no words. */
    static Words echo(String prompt) {
        String stripped = prompt.strip();
        if (stripped.isEmpty()) {
            return DEFAULT;
        }
        String[] words = stripped.split("\\s+");
        for (int i = 0; i < words.length; i++) {
            words[i] = " " + words[i];
        }
        return new Words(words);
    }

    /** The text of token {@code index} (0-based). */
    String text(int index) {
        return echoed == null ? VOCABULARY[index % VOCABULARY.length] : echoed[index % echoed.length];
    }

    /** The text of token {@code index} as escaped JSON string content, UTF-8. */
    byte[] json(int index) {
        return echoed == null ? VOCABULARY_JSON[index % VOCABULARY.length] : jsonEscaped(echoed[index % echoed.length]);
    }

    private static byte[] jsonEscaped(String s) {
        return new String(JsonStringEncoder.getInstance().quoteAsString(s)).getBytes(StandardCharsets.UTF_8);
    }
}
