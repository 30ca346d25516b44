package dev.llmload.workload.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.workload.DatasetException;
import dev.llmload.workload.Fixtures;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceSourceTest {

    private static final SyntheticPrompts PROMPTS = SyntheticPrompts.of(Tokenizers.defaultTokenizer());

    private static List<RequestSpec> all(TraceSource source) {
        List<RequestSpec> specs = new ArrayList<>();
        source.forEachRemaining(specs::add);
        return specs;
    }

    @ParameterizedTest
    @ValueSource(strings = {"trace.jsonl", "trace.csv"})
    void replaysTimestampsLengthsAndSharedBlocks(String name) {
        TraceSource source = new TraceSource(Fixtures.path(name), PROMPTS, TraceSource.DEFAULT_BLOCK_SIZE, 1);

        assertThat(source.sendOffsetsNanos()).containsExactly(0L, 250_000_000L, 1_250_500_000L);
        List<RequestSpec> specs = all(source);

        assertThat(specs).extracting(RequestSpec::inputTokens).containsExactly(1000, 700, 300);
        assertThat(specs).extracting(RequestSpec::maxOutputTokens).containsExactly(52, 10, 5);
        for (RequestSpec spec : specs) {
            assertThat(PROMPTS.tokenizer().count(spec.promptText())).isEqualTo(spec.inputTokens());
        }
        // Hash id 46 is the first 512-token block of both requests; 47 and 48 differ.
        String[] first = specs.get(0).promptText().split(" ");
        String[] second = specs.get(1).promptText().split(" ");
        assertThat(List.of(first).subList(0, 512)).isEqualTo(List.of(second).subList(0, 512));
        assertThat(List.of(first).subList(512, 600))
                .isNotEqualTo(List.of(second).subList(512, 600));
        assertThat(specs.get(2).promptText())
                .doesNotStartWith(String.join(" ", List.of(first).subList(0, 5)));
    }

    @Test
    void bothFormatsAndSeedsGiveTheSameText() {
        List<RequestSpec> jsonl = all(new TraceSource(Fixtures.path("trace.jsonl"), PROMPTS, 512, 1));
        List<RequestSpec> csv = all(new TraceSource(Fixtures.path("trace.csv"), PROMPTS, 512, 1));
        List<RequestSpec> otherSeed = all(new TraceSource(Fixtures.path("trace.csv"), PROMPTS, 512, 2));

        assertThat(csv).isEqualTo(jsonl);
        assertThat(otherSeed.get(0).promptText()).isNotEqualTo(csv.get(0).promptText());
    }

    @Test
    void badRowsFailConstructionWithFileAndLine(@TempDir Path dir) throws Exception {
        Path bad = Fixtures.path("trace-bad.csv");
        Path empty = Files.writeString(dir.resolve("trace.csv"), "timestamp,input_length,output_length\n");
        Path backwards = Files.writeString(dir.resolve("t.jsonl"), """
                {"timestamp": 10, "input_length": 5, "output_length": 5}
                {"timestamp": 9, "input_length": 5, "output_length": 5}
                """);
        Path noColumn = Files.writeString(dir.resolve("h.csv"), "ts,input_length,output_length\n0,1,1\n");

        assertThatThrownBy(() -> new TraceSource(bad, PROMPTS, 512, 0))
                .isInstanceOf(DatasetException.class)
                .hasMessage(bad + ":3: output_length '0' must be a whole number ≥ 1");
        assertThatThrownBy(() -> new TraceSource(empty, PROMPTS, 512, 0)).hasMessage(empty + ": empty trace");
        assertThatThrownBy(() -> new TraceSource(backwards, PROMPTS, 512, 0))
                .hasMessage(backwards + ":2: timestamp goes backwards");
        assertThatThrownBy(() -> new TraceSource(noColumn, PROMPTS, 512, 0))
                .hasMessage(noColumn + ":1: header has no column \"timestamp\"");
    }
}
