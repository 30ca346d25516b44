package dev.llmload.workload.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    void unknownSpecIsOneLineUserError() {
        assertThatThrownBy(() -> Tokenizers.byName("gpt2-large"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown tokenizer 'gpt2-large'")
                .hasMessageNotContaining("\n");
    }

    @Test
    void tokenizerJsonWithoutTheOptionalJarIsOneLineUserError(@TempDir Path dir) throws Exception {
        // The optional jar (llmload-tokenizers) is not on this module's class path; its own tests
        // read tokenizer.json files.
        Path file = Files.writeString(dir.resolve("tokenizer.json"), "{}");

        for (String spec : new String[] {file.toString(), dir.toString()}) {
            assertThatThrownBy(() -> Tokenizers.byName(spec))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "tokenizer " + file + " needs llmload-tokenizers.jar on the class path: put it beside"
                                    + " llmload.jar (./mvnw package builds both into llmload-cli/target; see docs/workloads.md)");
        }
    }
}
