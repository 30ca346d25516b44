package dev.llmload.cli.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Notes on the console are printed whole: wrapped at 100 columns, never cut. */
class ConsoleNotesTest {

    @Test
    void aLongNoteIsWrappedWholeWithItsLaterLinesIndented() {
        String message = "[queue_building] " + "word ".repeat(60).strip();
        StringBuilder out = new StringBuilder();
        ConsoleSummary.wrapped(out, message);

        String[] lines = out.toString().split("\n");
        assertThat(lines)
                .hasSize(4)
                .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));
        assertThat(lines[1]).startsWith("    word");
        // Every word is there: nothing is cut.
        assertThat(String.join(" ", lines).replaceAll("\\s+", " ")).isEqualTo(message);
    }

    @Test
    void aShortNoteIsOneLine() {
        StringBuilder out = new StringBuilder();
        ConsoleSummary.wrapped(out, "[rate_limited] 3 requests answered 429");
        assertThat(out).hasToString("[rate_limited] 3 requests answered 429\n");
    }
}
