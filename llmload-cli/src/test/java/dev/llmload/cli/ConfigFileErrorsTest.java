package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is wrong with a {@code --config} file is one line that says where, as a compiler says it
 * ({@code FILE:LINE:COLUMN: reason}), and exit code 2; no run starts.
 */
class ConfigFileErrorsTest {

    @TempDir
    Path dir;

    /** The one line {@code llmload run --config FILE} answers for a file of this text. */
    private String answer(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("scenario.yaml"), yaml);
        return answerFor(file);
    }

    private static String answerFor(Path file) {
        CapturedRun outcome = CapturedRun.of("run", "--config", file.toString());
        assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(Main.EXIT_USAGE);
        assertThat(outcome.out()).isEmpty();
        assertThat(outcome.err().strip().lines()).as(outcome.err()).hasSize(1);
        assertThat(outcome.err()).doesNotContain("Exception").doesNotContain("\tat ");
        return outcome.err().strip();
    }

    @Test
    void yamlThatDoesNotParseIsNamedByFileLineAndColumn() throws Exception {
        Path file = dir.resolve("scenario.yaml");
        // The second colon on line 2, column 16.
        assertThat(answer("concurrency: 3\nnum_requests: 4: 5\n"))
                .isEqualTo("llmload: --config " + file + ":2:16: mapping values are not allowed here");
        assertThat(answer("input-tokens: [1, 2\noutput-tokens: 3\n"))
                .isEqualTo("llmload: --config " + file
                        + ":2:14: while parsing a flow sequence: expected ',' or ']', but got :");
        assertThat(answer("concurrency: 3\n\tnum-requests: 4\n"))
                .startsWith("llmload: --config " + file + ":2:1: ")
                .contains("(TAB)");
        assertThat(answer("- concurrency: 3\n"))
                .isEqualTo("llmload: --config " + file + ": expected a mapping of option names to values");
    }

    @Test
    void anUnknownKeyGetsTheNearestOptionOrLlmloadsSpellingWithItsPlace() throws Exception {
        Path file = dir.resolve("scenario.yaml");
        assertThat(answer("concurrency: 3\nmax_concurency: 4\n"))
                .isEqualTo("llmload: --config " + file
                        + ":2:1: unknown option 'max_concurency'; did you mean 'max-concurrency'?");
        assertThat(answer("num-requests: 3\n  # indented comment\nrequestCount: 4\n"))
                .isEqualTo(
                        "llmload: --config " + file
                                + ":3:1: unknown option 'requestCount': llmload spells AIPerf's --request-count as --num-requests");
        assertThat(answer("metadata: {team: perf}\nfoo: 1\n"))
                .isEqualTo("llmload: --config " + file + ":2:1: unknown option 'foo'");
        assertThat(answer("num-requests: 3\nnum_requests: 4\n"))
                .isEqualTo("llmload: --config " + file + ":2:1: 'num_requests' is given twice (also on line 1)");
        assertThat(answer("header: {x-route: a}\n"))
                .isEqualTo("llmload: --config " + file + ":1:1: 'header' must be a single value or a non-empty list");
    }

    @Test
    void aMissingFileOrADirectoryIsNamedAsSuch() throws Exception {
        Path missing = dir.resolve("missing.yaml");
        assertThat(answerFor(missing)).isEqualTo("llmload: --config " + missing + ": no such file");
        assertThat(answerFor(dir)).isEqualTo("llmload: --config " + dir + ": a directory, not a file");
    }
}
