package dev.llmload.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Words and characters counted against hand-counted texts, whole and in pieces. */
class TextCountsTest {

    private static TextCounts.Counter counted(String... pieces) {
        TextCounts.Counter counter = new TextCounts.Counter();
        for (String piece : pieces) {
            counter.add(piece);
        }
        return counter;
    }

    @Test
    void wordsAreRunsBetweenWhiteSpaceAndCharactersAreCodePoints() {
        // "The", "sky's", "blue.": 3 words; 3 + 1 + 5 + 1 + 5 = 15 characters.
        assertThat(counted("The sky's blue.").words()).isEqualTo(3);
        assertThat(counted("The sky's blue.").characters()).isEqualTo(15);
        // Leading, trailing and repeated white space of every kind makes no word: "a", "b", "c", "d".
        TextCounts.Counter spaced = counted("  a\t\tb\n\r\nc\u00a0\u2003d \u2029");
        assertThat(spaced.words()).isEqualTo(4);
        assertThat(spaced.characters()).isEqualTo(15);
        // An emoji is one code point (two UTF-16 units); a CJK run without spaces is one word.
        TextCounts.Counter wide = counted("\uD83D\uDE00 \u732b\u304c\u597d\u304d");
        assertThat(wide.words()).isEqualTo(2);
        assertThat(wide.characters()).isEqualTo(6);
        assertThat(counted("").words()).isZero();
        assertThat(counted(" \n ").words()).isZero();
        assertThat(counted(" \n ").characters()).isEqualTo(3);
    }

    @Test
    void aWordRunsOnAcrossPiecesAsTokensStreamIt() {
        // The tokens " Hel", "lo", " wor", "ld!" stream " Hello world!": 2 words, 13 characters.
        TextCounts.Counter streamed = counted(" Hel", "lo", " wor", "ld!");
        assertThat(streamed.words()).isEqualTo(2);
        assertThat(streamed.characters()).isEqualTo(13);
        // A surrogate pair cut between two pieces is still one character.
        TextCounts.Counter cut = counted("a\uD83D", "\uDE00b");
        assertThat(cut.words()).isEqualTo(1);
        assertThat(cut.characters()).isEqualTo(3);
    }

    @Test
    void aBrokenWordDoesNotRunIntoTheNextText() {
        TextCounts.Counter messages = new TextCounts.Counter();
        messages.add("You are terse");
        messages.breakWord();
        messages.add("Hi");
        assertThat(messages.words()).isEqualTo(4);
        assertThat(messages.characters()).isEqualTo(15);
    }
}
