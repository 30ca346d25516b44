package dev.llmload.tokenizers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tokenizer.json through core's {@link Tokenizers}, which finds this module's loader on the class path. */
class HuggingFaceTokenizerTest {

    /** A word-level tokenizer.json with a small vocabulary, enough to count by hand. */
    private static Path fixture() throws URISyntaxException {
        return Path.of(
                HuggingFaceTokenizerTest.class.getResource("tokenizer.json").toURI());
    }

    @Test
    void loadsLocalHuggingFaceTokenizerJson() throws Exception {
        Path file = fixture();

        Tokenizer tokenizer = Tokenizers.byName(file.toString());

        assertThat(tokenizer.name()).isEqualTo(file.toString());
        int[] tokens = tokenizer.encode("hello world the");
        assertThat(tokens).hasSize(3);
        assertThat(tokenizer.count("hello world the")).isEqualTo(3);
        assertThat(tokenizer.decode(tokens)).isEqualTo("hello world the");
        // A directory holding tokenizer.json names it too.
        assertThat(Tokenizers.byName(file.getParent().toString()).count("hello world"))
                .isEqualTo(2);
    }

    @Test
    void syntheticPromptsAreExactUnderIt() throws Exception {
        SyntheticPrompts prompts =
                SyntheticPrompts.of(Tokenizers.byName(fixture().toString()));

        assertThat(prompts.tokenizer().count(prompts.generate(300, new SplittableRandom(1))))
                .isEqualTo(300);
    }

    @Test
    void unreadableTokenizerJsonIsOneLineUserError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("tokenizer.json"), "{not json");

        assertThatThrownBy(() -> Tokenizers.byName(file.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot load tokenizer " + file)
                .hasMessageNotContaining("\n");
    }
}
