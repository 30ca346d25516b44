package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The command line built for one invocation holds only the subcommands it can reach; what a user
 * sees is the same as from the whole command line.
 */
class SubcommandsTest {

    @Test
    void versionAloneAnswersWithoutAnySubcommand() {
        CapturedRun outcome = CapturedRun.of("--version");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.out().lines().toList()).hasSize(2).first().asString().startsWith("llmload ");
        assertThat(outcome.out().lines().toList().get(1)).startsWith("Java ");
    }

    @Test
    void aSubcommandsHelpIsTheSameAsFromTheWholeCommandLine() {
        for (String name : new String[] {"run", "sweep", "compare", "report", "merge", "sim"}) {
            CapturedRun alone = CapturedRun.of(name, "--help");

            assertThat(alone.exitCode()).isZero();
            assertThat(alone.out())
                    .startsWith("Usage: llmload " + name + " ")
                    .isEqualTo(usage(Main.commandLine()
                            .getSubcommands()
                            .get(name)
                            .getCommandSpec()
                            .commandLine()));
        }
    }

    @Test
    void helpAndTheTopLevelUsageListEverySubcommand() {
        CapturedRun help = CapturedRun.of("--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .contains("  run ", "  sweep ", "  compare ", "  report ", "  merge ", "  sim ", "  help ");
        CapturedRun helpRun = CapturedRun.of("help", "run");
        assertThat(helpRun.exitCode()).isZero();
        assertThat(helpRun.out()).startsWith("Usage: llmload run ");
    }

    @Test
    void usageErrorsReadAsFromTheWholeCommandLine() {
        for (String[] args : new String[][] {{"rnu"}, {"rnu", "--concurrency", "4"}, {"run", "--concurency", "4"}}) {
            CapturedRun outcome = CapturedRun.of(args);

            assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
            assertThat(outcome.err().strip().lines().count()).as(outcome.err()).isEqualTo(1);
            assertThat(outcome.err())
                    .startsWith("llmload: ")
                    .isEqualTo(whole(args).err());
        }
    }

    private static CapturedRun whole(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new CapturedRun(code, out.toString(), err.toString());
    }

    private static String usage(picocli.CommandLine commandLine) {
        StringWriter out = new StringWriter();
        commandLine.usage(new PrintWriter(out, true));
        return out.toString();
    }
}
