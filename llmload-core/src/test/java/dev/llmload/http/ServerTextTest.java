package dev.llmload.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@link ServerText#clean} makes of strings, checked against hand-written expectations. */
class ServerTextTest {

    @Test
    void cleanTextIsReturnedAsItIsPairsIncluded() {
        String text = "Grüße, 你好 \uD83D\uDE00 end";
        assertThat(ServerText.clean(text)).isSameAs(text);
        assertThat(ServerText.clean(null)).isNull();
    }

    @Test
    void unpairedSurrogatesBecomeTheReplacementCharacter() {
        assertThat(ServerText.clean("a\uD800b")).isEqualTo("a\uFFFDb");
        assertThat(ServerText.clean("a\uDC00")).isEqualTo("a\uFFFD");
        assertThat(ServerText.clean("\uDE00\uD83D")).isEqualTo("\uFFFD\uFFFD");
        assertThat(ServerText.clean("\uD83D\uDE00\uD800")).isEqualTo("\uD83D\uDE00\uFFFD");
        // Whatever came in, the result encodes to UTF-8 and back unchanged.
        String cleaned = ServerText.clean("x\uD800\uD801y\uDFFF");
        assertThat(new String(cleaned.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                .isEqualTo(cleaned);
    }

    @Test
    void controlCharactersAreWrittenOutVisibly() {
        assertThat(ServerText.clean("a\u001b[2Jb")).isEqualTo("a\\u001b[2Jb");
        assertThat(ServerText.clean("line\nnext\r\tx")).isEqualTo("line\\nnext\\r\\tx");
        assertThat(ServerText.clean("\u0000\u007f\u009b")).isEqualTo("\\u0000\\u007f\\u009b");
        assertThat(ServerText.clean("abc\u202Eevil")).isEqualTo("abc\\u202eevil");
    }

    @Test
    void separatorsAndInvisibleFormatCharactersAreWrittenOutVisibly() {
        // A line separator breaks a terminal's line; the others hide or reorder what follows.
        assertThat(ServerText.clean("a\u2028b\u2029c")).isEqualTo("a\\u2028b\\u2029c");
        assertThat(ServerText.clean("zero\u200bwidth\u200c\u200djoin\ufeff"))
                .isEqualTo("zero\\u200bwidth\\u200c\\u200djoin\\ufeff");
        assertThat(ServerText.clean("mark\u200e\u200f\u061c iso\u2066\u2069 word\u2060"))
                .isEqualTo("mark\\u200e\\u200f\\u061c iso\\u2066\\u2069 word\\u2060");
        // A tag character (beyond U+FFFF, invisible: text smuggled past a reader) as its two surrogates.
        assertThat(ServerText.clean("x\uDB40\uDC41y")).isEqualTo("x\\udb40\\udc41y");
        // Visible characters beyond ASCII stay, and a no-break space is a space.
        assertThat(ServerText.clean("caf\u00e9 \u00a0 \u4f60")).isEqualTo("caf\u00e9 \u00a0 \u4f60");
    }
}
