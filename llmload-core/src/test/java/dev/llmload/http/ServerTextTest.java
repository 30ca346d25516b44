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
        assertThat(new String(cleaned.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(cleaned);
    }

    @Test
    void controlCharactersAreWrittenOutVisibly() {
        assertThat(ServerText.clean("a\u001b[2Jb")).isEqualTo("a\\u001b[2Jb");
        assertThat(ServerText.clean("line\nnext\r\tx")).isEqualTo("line\\nnext\\r\\tx");
        assertThat(ServerText.clean("\u0000\u007f\u009b")).isEqualTo("\\u0000\\u007f\\u009b");
        assertThat(ServerText.clean("abc\u202Eevil")).isEqualTo("abc\\u202eevil");
    }
}
