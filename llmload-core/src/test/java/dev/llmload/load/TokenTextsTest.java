package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Each event's text comes back as it was added, across the buffer's growth; the whole is their concatenation. */
class TokenTextsTest {

    @Test
    void eventsAndWholeAcrossGrowth() {
        TokenTexts texts = new TokenTexts();
        StringBuilder whole = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            String text = i % 10 == 3 ? "" : i % 7 == 0 ? "é" + i : " t" + i;
            texts.add(text);
            whole.append(text);
        }
        texts.add(null);
        assertThat(texts.size()).isEqualTo(101);
        assertThat(texts.event(0)).isEqualTo("é0");
        assertThat(texts.event(3)).isEmpty();
        assertThat(texts.event(99)).isEqualTo(" t99");
        assertThat(texts.event(100)).as("an event without text").isEmpty();
        assertThat(texts.whole()).isEqualTo(whole.toString());
        assertThatThrownBy(() -> texts.event(101)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void noneHasNoEvents() {
        assertThat(TokenTexts.none().size()).isZero();
        assertThat(TokenTexts.none().whole()).isEmpty();
    }

    /** The events one by one, for assertions. */
    static List<String> events(TokenTexts texts) {
        return IntStream.range(0, texts.size()).mapToObj(texts::event).toList();
    }
}
