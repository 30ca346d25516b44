package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import picocli.CommandLine;

/**
 * Every option a command's --help lists is documented, and every help text renders cleanly.
 * Isolated: picocli warns on System.err, which a test swaps for its own while it renders, so no
 * other class of the pure tier (whose classes run side by side) may write there meanwhile.
 */
@Isolated
class HelpMatchesDocsTest {

    /** Where each command's options are documented. */
    private static final Map<String, String> DOCS = Map.of(
            "run", "cli.md",
            "report", "cli.md",
            "sim", "simulator.md",
            "fit", "cli.md",
            "whatif", "cli.md",
            "sweep", "sweep-and-compare.md",
            "compare", "sweep-and-compare.md");

    @Test
    void everyOptionOfEveryCommandIsInItsDocument() throws Exception {
        CommandLine root = Main.commandLine();
        for (Map.Entry<String, String> entry : DOCS.entrySet()) {
            CommandLine command = root.getSubcommands().get(entry.getKey());
            assertThat(command).as(entry.getKey()).isNotNull();
            String doc = Files.readString(Path.of("..", "docs", entry.getValue()));
            if (entry.getKey().equals("sweep")) {
                // A sweep takes the run options, which cli.md describes.
                doc += Files.readString(Path.of("..", "docs", "cli.md"));
            }
            for (CommandLine.Model.OptionSpec option : command.getCommandSpec().options()) {
                if (option.usageHelp() || option.versionHelp()) {
                    continue;
                }
                for (String name : option.names()) {
                    // A negatable flag is written as --[no-]name, as --help shows it.
                    String written = option.negatable() && doc.contains("--[no-]" + name.substring(2))
                            ? "--[no-]" + name.substring(2)
                            : name;
                    assertThat(doc)
                            .as("docs/%s documents %s %s", entry.getValue(), entry.getKey(), name)
                            .contains(written);
                }
            }
        }
    }

    @Test
    void everyHelpTextRendersWithoutFormatWarnings() {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (String command : DOCS.keySet()) {
                StringWriter out = new StringWriter();
                CommandLine commandLine = Main.commandLine();
                commandLine.setOut(new PrintWriter(out, true));
                assertThat(commandLine.execute(command, "--help")).isZero();
                assertThat(out.toString()).contains("Usage: llmload " + command);
            }
        } finally {
            System.setErr(originalErr);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    }
}
