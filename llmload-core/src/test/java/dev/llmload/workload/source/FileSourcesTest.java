package dev.llmload.workload.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.ContentHash;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.Fixtures;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourcesTest {

    private static final Tokenizer TOKENIZER = Tokenizers.defaultTokenizer();
    private static final OutputLengths OUTPUT_100 = OutputLengths.datasetOr(new LengthDistribution.Fixed(100));

    private static List<RequestSpec> all(RequestSource source) {
        List<RequestSpec> specs = new ArrayList<>();
        try (source) {
            source.forEachRemaining(specs::add);
        }
        return specs;
    }

    @Test
    void jsonlPromptsAndMessages() {
        Path file = Fixtures.path("data.jsonl");

        List<RequestSpec> specs = all(JsonlSource.open(file, TOKENIZER, OUTPUT_100, 0));

        assertThat(specs).extracting(RequestSpec::index).containsExactly(0L, 1L, 2L);
        assertThat(specs.get(0).messages())
                .containsExactly(ChatMessage.user("Summarise the plot of Hamlet in two sentences."));
        assertThat(specs.get(0).inputTokens())
                .isEqualTo(TOKENIZER.count("Summarise the plot of Hamlet in two sentences."));
        assertThat(specs).extracting(RequestSpec::maxOutputTokens).containsExactly(64, 100, 32);
        assertThat(specs.get(1).messages()).extracting(ChatMessage::role).containsExactly("system", "user");
        assertThat(specs.get(1).inputTokens()).isEqualTo(TOKENIZER.count("You are terse.\nName three prime numbers."));
    }

    @Test
    void overrideReplacesTheDatasetsOutputLengths() {
        List<RequestSpec> specs = all(JsonlSource.open(
                Fixtures.path("data.jsonl"), TOKENIZER, OutputLengths.always(new LengthDistribution.Fixed(7)), 0));

        assertThat(specs).extracting(RequestSpec::maxOutputTokens).containsOnly(7);
    }

    @Test
    void jsonlErrorNamesFileAndLine() {
        Path file = Fixtures.path("bad.jsonl");

        assertThatThrownBy(() -> JsonlSource.prescan(file))
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(file + ":3: not valid JSON (");
    }

    @Test
    void jsonlFieldErrors(@TempDir Path dir) throws Exception {
        Path noPrompt = Files.writeString(dir.resolve("a.jsonl"), "{\"prompt\":\"x\"}\n{\"text\":\"x\"}\n");
        Path badOutput = Files.writeString(dir.resolve("b.jsonl"), "{\"prompt\":\"x\",\"output_tokens\":0}\n");
        Path empty = Files.writeString(dir.resolve("c.jsonl"), "\n\n");

        assertThatThrownBy(() -> JsonlSource.prescan(noPrompt))
                .hasMessage(noPrompt + ":2: has neither \"prompt\" nor \"messages\"");
        assertThatThrownBy(() -> JsonlSource.prescan(badOutput))
                .hasMessage(badOutput + ":1: \"output_tokens\" must be a whole number ≥ 1, got 0");
        assertThatThrownBy(() -> JsonlSource.prescan(empty)).hasMessage(empty + ": no entries");
    }

    @Test
    void jsonlStreamsLazilyAndPrescanCatchesWhatStreamingMeetsLate(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("big.jsonl");
        // About a megabyte: over a hundred times what a BufferedReader holds (8 KiB), so a source
        // that read, or parsed, ahead of its next request would meet the bad last line at once.
        int lines = 20_000;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int i = 0; i < lines; i++) {
                out.write("{\"prompt\": \"question number " + i + "\", \"output_tokens\": 16}\n");
            }
            out.write("{\"prompt\": \"truncated\n");
        }

        // Lazily: the first request comes without reading (or failing on) the rest.
        JsonlSource source = new JsonlSource(file, TOKENIZER, OUTPUT_100, 0);
        assertThat(source.next().messages().getFirst().content()).isEqualTo("question number 0");
        long read = 1;
        try (source) {
            while (read < lines) {
                source.next();
                read++;
            }
            assertThatThrownBy(source::hasNext).hasMessageStartingWith(file + ":" + (lines + 1) + ": not valid JSON");
        }

        // The prescan finds it before anything is sent.
        assertThatThrownBy(() -> JsonlSource.open(file, TOKENIZER, OUTPUT_100, 0))
                .hasMessageStartingWith(file + ":" + (lines + 1) + ": not valid JSON");
    }

    @Test
    void shareGptFirstHumanTurnAndAnswerLength() {
        Path file = Fixtures.path("sharegpt.json");

        ShareGptSource source = ShareGptSource.open(file, TOKENIZER, OUTPUT_100, 0);
        List<RequestSpec> specs = all(source);

        assertThat(specs).hasSize(2);
        assertThat(specs.get(0).promptText()).isEqualTo("What is the capital of France?");
        assertThat(specs.get(0).maxOutputTokens()).isEqualTo(TOKENIZER.count("The capital of France is Paris."));
        assertThat(specs.get(1).promptText()).isEqualTo("Explain a KV cache in one line.");
        assertThat(specs.get(1).inputTokens()).isEqualTo(TOKENIZER.count("Explain a KV cache in one line."));
        assertThat(source.skipped()).isEqualTo(2);
        assertThat(ShareGptSource.prescan(file, OUTPUT_100)).satisfies(scan -> {
            assertThat(scan.entries()).isEqualTo(2);
            assertThat(scan.skipped()).isEqualTo(2);
            assertThat(scan.sha256()).isEqualTo(ContentHash.of(file));
        });
    }

    @Test
    void shareGptOutputOverride() {
        List<RequestSpec> specs = all(ShareGptSource.open(
                Fixtures.path("sharegpt.json"), TOKENIZER, OutputLengths.always(new LengthDistribution.Fixed(9)), 0));

        assertThat(specs).extracting(RequestSpec::maxOutputTokens).containsExactly(9, 9);
    }

    @Test
    void shareGptErrorsNameFileEntryAndLine(@TempDir Path dir) throws Exception {
        Path file = Fixtures.path("sharegpt-bad.json");
        Path notArray = Files.writeString(dir.resolve("obj.json"), "{\"conversations\": []}");
        Path broken =
                Files.writeString(dir.resolve("broken.json"), "[\n{\"conversations\": [\n{\"from\": \"human\",]}]");

        assertThatThrownBy(() -> ShareGptSource.prescan(file, OUTPUT_100))
                .isInstanceOf(DatasetException.class)
                .hasMessage(file + ":4: entry 3 has no \"conversations\" array");
        assertThatThrownBy(() -> ShareGptSource.prescan(notArray, OUTPUT_100))
                .hasMessage(notArray + ": expected a JSON array of conversations");
        assertThatThrownBy(() -> ShareGptSource.prescan(broken, OUTPUT_100))
                .hasMessageStartingWith(broken + ":3: not valid JSON (");
        // Streaming without a prescan meets the bad entry only after the good ones.
        ShareGptSource lazy = new ShareGptSource(file, TOKENIZER, OUTPUT_100, 0);
        assertThat(lazy.next().promptText()).isEqualTo("hi");
        assertThat(lazy.next().promptText()).isEqualTo("hi");
        assertThatThrownBy(lazy::hasNext).hasMessageContaining("entry 3");
    }

    @Test
    void contentHashIsTheFilesSha256() throws Exception {
        Path file = Fixtures.path("data.jsonl");
        String expected = java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));

        assertThat(new JsonlSource(file, TOKENIZER, OUTPUT_100, 0).contentHash())
                .isEqualTo(expected);
        assertThat(JsonlSource.prescan(file).sha256()).isEqualTo(expected);
        assertThat(JsonlSource.open(file, TOKENIZER, OUTPUT_100, 0).contentHash())
                .isEqualTo(expected);
    }
}
