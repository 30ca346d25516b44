package dev.llmload.load;

import dev.llmload.record.TextCounts;

/**
 * The text of each token event of one response, kept for what may read it once the response has
 * ended: the local tokenizer, when the server did not count the tokens itself, and a session's
 * next turn, which carries the whole answer (an event whose text nothing would read has none, see
 * {@link TokenEvents#dropLastText}). One string of all the events' text and the end of
 * each event in it, not a {@code String} per event (a token's text is a few characters, and a
 * string object around them costs more than they do). Made by {@link TokenEvents#texts} when the
 * response ends. Beside the text it holds the words and characters of all the text that streamed
 * ({@link dev.llmload.record.TextCounts}), counted as each event arrived, before any text was
 * dropped.
 *
 * <p>Immutable: handed to the recorder thread through its queue and read there, by a counting
 * thread and by a session's dispatcher.
 */
final class TokenTexts {

    private static final TokenTexts NONE = new TokenTexts("", new int[0], 0, 0);

    private final String text;
    private final int[] ends;
    private final int words;
    private final int characters;

    /**
     * @param ends       where each event's text ends in {@code text}, in order
     * @param words      words of every event's text as it streamed, {@link TextCounts#UNKNOWN} when an
     *                   event carried none
     * @param characters their code points, likewise
     */
    TokenTexts(String text, int[] ends, int words, int characters) {
        this.text = text;
        this.ends = ends;
        this.words = words;
        this.characters = characters;
    }

    /** Words of the answer as it streamed (dropped text included); {@link TextCounts#UNKNOWN} when not known. */
    int words() {
        return words;
    }

    /** Code points of the answer as it streamed; {@link TextCounts#UNKNOWN} when not known. */
    int characters() {
        return characters;
    }

    int size() {
        return ends.length;
    }

    /** The text of event {@code i}. */
    String event(int i) {
        if (i < 0 || i >= ends.length) {
            throw new IndexOutOfBoundsException("event " + i + " of " + ends.length);
        }
        return text.substring(i == 0 ? 0 : ends[i - 1], ends[i]);
    }

    /** Characters of all the events' text together. */
    int length() {
        return text.length();
    }

    /** Every event's text, in order. */
    String whole() {
        return text;
    }

    /** No events. */
    static TokenTexts none() {
        return NONE;
    }
}
