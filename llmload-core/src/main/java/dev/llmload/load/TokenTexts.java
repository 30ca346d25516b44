package dev.llmload.load;

/**
 * The text of each token event of one response, kept for what may read it once the response has
 * ended: the local tokenizer, when the server did not count the tokens itself, and a session's
 * next turn, which carries the whole answer (an event whose text nothing would read has none, see
 * {@link TokenEvents#dropLastText}). One string of all the events' text and the end of
 * each event in it, not a {@code String} per event (a token's text is a few characters, and a
 * string object around them costs more than they do). Made by {@link TokenEvents#texts} when the
 * response ends.
 *
 * <p>Immutable: handed to the recorder thread through its queue and read there, by a counting
 * thread and by a session's dispatcher.
 */
final class TokenTexts {

    private static final TokenTexts NONE = new TokenTexts("", new int[0]);

    private final String text;
    private final int[] ends;

    /** @param ends where each event's text ends in {@code text}, in order */
    TokenTexts(String text, int[] ends) {
        this.text = text;
        this.ends = ends;
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
