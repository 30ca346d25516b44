package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A user's mistake gets one clear line and a non-zero exit code, never a stack trace. */
class CommandLineErrorsTest {

    private record Outcome(int exitCode, String out, String err) {}

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    private static void assertOneLineWithoutStackTrace(String err) {
        assertThat(err.strip().lines().count()).as("stderr: %s", err).isEqualTo(1);
        assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void unknownFlagIsAUsageError() {
        Outcome outcome = run("run", "--concurency", "4");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--concurency");
    }

    @Test
    void zeroConcurrencyIsAUsageError() {
        Outcome outcome = run("run", "--concurrency", "0", "--url", "http://127.0.0.1:1");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--concurrency must be at least 1");
    }

    @Test
    void sessionsCannotReplayADataset() {
        Outcome outcome = run("run", "--sessions", "3", "--trace", "pom.xml");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--sessions makes synthetic conversations");
    }

    @Test
    void thinkTimeWithoutSessionsIsAUsageError() {
        Outcome outcome = run("run", "--think-time", "500");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--think-time and --max-sessions apply only with --sessions");
    }

    @Test
    void badDurationIsAUsageError() {
        Outcome outcome = run("run", "--duration", "soon");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
    }

    @Test
    void bothLoadModelsAtOnceIsAUsageError() {
        Outcome outcome = run("run", "--concurrency", "2", "--request-rate", "5");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
    }

    @Test
    void unreachableServerCannotStart() {
        Outcome outcome = run("run", "--url", "http://127.0.0.1:1", "--num-requests", "1",
                "--output-dir", System.getProperty("java.io.tmpdir") + "/llmload-unreachable-test");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_CANNOT_START);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("cannot reach http://127.0.0.1:1/v1");
    }

    @Test
    void badUrlIsAUsageError() {
        Outcome outcome = run("run", "--url", "ftp://example");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
    }

    @Test
    void everyCommandHasHelpAndVersion() {
        for (String command : new String[] {"run"}) {
            Outcome help = run(command, "--help");
            assertThat(help.exitCode()).isZero();
            assertThat(help.out()).contains("Usage: llmload " + command);
        }
        Outcome version = run("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("llmload ");
    }
}
