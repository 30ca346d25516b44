package dev.llmload.record;

/**
 * The words and characters of one request's prompt and answer, beside its tokens: what a user of
 * GuideLLM reads as text words and characters. A <em>word</em> is a run of characters that are not
 * white space ({@link #isSpace}), as Python's {@code str.split()} cuts them; a <em>character</em>
 * is a Unicode code point. The prompt's text is its messages' contents (each counted on its own,
 * then summed); the answer's is the text of its token events, reasoning and content, in the order
 * they streamed. Pure.
 *
 * @param inputWords       words of the prompt; {@link #UNKNOWN} where its text was not known
 * @param inputCharacters  code points of the prompt; {@link #UNKNOWN} likewise
 * @param outputWords      words of the answer; {@link #UNKNOWN} where the server's stream carried a
 *                         token without its text (so no count would be true)
 * @param outputCharacters code points of the answer; {@link #UNKNOWN} likewise
 */
public record TextCounts(int inputWords, int inputCharacters, int outputWords, int outputCharacters) {

    /** A count that was not taken. */
    public static final int UNKNOWN = -1;

    /** Nothing known: a record of a journal written before these counts were. */
    public static final TextCounts NONE = new TextCounts(UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN);

    /** Whether any of the four counts was taken. */
    public boolean anyKnown() {
        return inputWords >= 0 || inputCharacters >= 0 || outputWords >= 0 || outputCharacters >= 0;
    }

    /**
     * White space between words: what {@link Character#isWhitespace} or {@link Character#isSpaceChar}
     * accepts (tab, line feed and the other ASCII separators, and Unicode's space, line and
     * paragraph separators, no-break spaces included, as Python's {@code str.isspace}). All of them
     * are in the Basic Multilingual Plane, so a {@code char} suffices.
     */
    public static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    /** Words and code points of text read in pieces, a word running on from one piece into the next. Not thread-safe. */
    public static final class Counter {

        private int words;
        private int characters;
        private boolean inWord;

        /** Counts {@code text}'s words and code points on from the pieces before it. */
        public void add(CharSequence text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                // A surrogate pair is one code point: its low half adds none.
                if (!Character.isLowSurrogate(c)) {
                    characters++;
                }
                if (isSpace(c)) {
                    inWord = false;
                } else if (!inWord) {
                    inWord = true;
                    words++;
                }
            }
        }

        /** Starts a new text: a word at the end of the last piece does not run into the next. */
        public void breakWord() {
            inWord = false;
        }

        public int words() {
            return words;
        }

        public int characters() {
            return characters;
        }
    }
}
