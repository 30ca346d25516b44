package dev.llmload.workload.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.workload.Fixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokenizersTest {

    @ParameterizedTest
    @ValueSource(strings = {"cl100k_base", "o200k_base", "p50k_base", "r50k_base"})
    void encodingsRoundTripAndCount(String name) {
        Tokenizer tokenizer = Tokenizers.byName(name);
        String text = "The quick brown fox jumps over the lazy dog.";

        int[] tokens = tokenizer.encode(text);

        assertThat(tokenizer.name()).isEqualTo(name);
        assertThat(tokens).hasSizeBetween(9, 12);
        assertThat(tokenizer.count(text)).isEqualTo(tokens.length);
        assertThat(tokenizer.decode(tokens)).isEqualTo(text);
    }

    @Test
    void knownCountsMatchTiktoken() {
        // Reference counts from OpenAI's tiktoken.
        assertThat(Tokenizers.byName("cl100k_base").count("hello world")).isEqualTo(2);
        assertThat(Tokenizers.byName("cl100k_base").encode("hello world")).containsExactly(15339, 1917);
        assertThat(Tokenizers.byName("o200k_base").encode("hello world")).containsExactly(24912, 2375);
    }

    @Test
    void specialTokenMarkersAreOrdinaryText() {
        Tokenizer tokenizer = Tokenizers.defaultTokenizer();

        assertThat(tokenizer.count("<|endoftext|>")).isGreaterThan(1);
    }

    @Test
    void namesAreCaseInsensitiveAndShared() {
        assertThat(Tokenizers.byName(" CL100K_BASE ")).isSameAs(Tokenizers.byName("cl100k_base"));
    }

    @Test
    void loadsLocalHuggingFaceTokenizerJson() {
        Path file = Fixtures.path("tokenizer.json");

        Tokenizer tokenizer = Tokenizers.byName(file.toString());

        assertThat(tokenizer.name()).isEqualTo(file.toString());
        int[] tokens = tokenizer.encode("hello world the");
        assertThat(tokens).hasSize(3);
        assertThat(tokenizer.count("hello world the")).isEqualTo(3);
        assertThat(tokenizer.decode(tokens)).isEqualTo("hello world the");
        // A directory holding tokenizer.json names it too.
        assertThat(Tokenizers.byName(file.getParent().toString()).count("hello world")).isEqualTo(2);
    }

    @Test
    void unknownSpecIsOneLineUserError() {
        assertThatThrownBy(() -> Tokenizers.byName("gpt2-large"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown tokenizer 'gpt2-large'")
                .hasMessageNotContaining("\n");
    }

    @Test
    void unreadableTokenizerJsonIsUserError(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("tokenizer.json"), "{not json");

        assertThatThrownBy(() -> Tokenizers.byName(file.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot load tokenizer " + file);
    }
}
