package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Mistakes on {@code sweep} and {@code compare} get one line and exit 2, before any load. */
class SweepCompareUsageTest {

    private static String[] run(int expectedExit, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        assertThat(commandLine.execute(args)).as(err.toString()).isEqualTo(expectedExit);
        return new String[] {out.toString(), err.toString()};
    }

    private static void usageError(String expected, String... args) {
        String err = run(Main.EXIT_USAGE, args)[1];
        assertThat(err.strip().lines().count()).as(err).isEqualTo(1);
        assertThat(err).contains(expected).doesNotContain("Exception");
    }

    @Test
    void sweepMistakes() {
        usageError("exactly one of", "sweep", "--url", "http://127.0.0.1:1");
        usageError("exactly one of", "sweep", "--auto", "--concurrency", "1,2");
        usageError("needs --slo", "sweep", "--find-capacity");
        usageError("needs --slo with a percentile limit", "sweep", "--find-capacity", "--slo", "ttft:500");
        usageError("--slo: unknown limit 'p98_ttft'", "sweep", "--find-capacity", "--slo", "p98_ttft:100");
        usageError("--request-rate", "sweep", "--request-rate", "0,2");
        usageError("whole numbers", "sweep", "--concurrency", "1.5,2");
        usageError("--inptu-tokens", "sweep", "--concurrency", "1,2", "--inptu-tokens", "5");
        usageError("--by", "sweep", "--find-capacity", "--slo", "p99_ttft:1", "--by", "users");
        usageError("cannot be swept", "sweep", "--request-rate", "1,2", "--ramp", "1:5:10s");
    }

    @Test
    void compareMistakes() {
        usageError("--fail-if", "compare", "a", "b", "--fail-if", "p99_ttft:10%");
        usageError("no such directory", "compare", "/nonexistent/run-a", "/nonexistent/run-b");
    }

    @Test
    void helpNamesTheOptions() {
        assertThat(run(0, "sweep", "--help")[0]).contains("--find-capacity", "--resume", "--cool-down");
        assertThat(run(0, "compare", "--help")[0]).contains("--fail-if", "--allow-mismatch");
    }
}
