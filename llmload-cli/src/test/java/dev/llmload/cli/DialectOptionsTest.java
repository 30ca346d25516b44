package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code --api}, {@code --batch-size} and {@code --images} misused: one clear line and exit code 2. */
class DialectOptionsTest {

    private static void usageError(String expected, String... args) {
        CapturedRun outcome = CapturedRun.of(args);
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(outcome.err().strip().lines().count())
                .as("stderr: %s", outcome.err())
                .isEqualTo(1);
        assertThat(outcome.err()).doesNotContain("Exception").contains(expected);
    }

    @Test
    void anUnknownApiListsTheKnownOnes() {
        usageError(
                "--api: unknown API 'vllm' (expected one of chat, completions, tgi, triton, ollama, ollama-chat, "
                        + "llamacpp, sglang, anthropic, responses, embeddings, rerank, auto)",
                "run",
                "--api",
                "vllm");
    }

    @Test
    void aBatchSizeNeedsEmbeddingsOrRerank() {
        usageError("--batch-size needs --api embeddings or rerank", "run", "--batch-size", "8");
        usageError("--batch-size must be at least 1", "run", "--api", "embeddings", "--batch-size", "0");
    }

    @Test
    void imagesNeedChatAndTheirShape() {
        usageError("--images needs --api chat", "run", "--api", "completions", "--images", "1:64x64");
        usageError("--images expects N:WxH (e.g. 1:512x512), got '64x64'", "run", "--images", "64x64");
    }
}
