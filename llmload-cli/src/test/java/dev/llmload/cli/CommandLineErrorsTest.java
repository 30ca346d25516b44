package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A user's mistake gets one clear line and a non-zero exit code, never a stack trace. */
@Tag("loopback")
class CommandLineErrorsTest {

    private static void assertOneLineWithoutStackTrace(String err) {
        assertThat(err.strip().lines().count()).as("stderr: %s", err).isEqualTo(1);
        assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void unknownFlagIsAUsageError() {
        CapturedRun outcome = CapturedRun.of("run", "--concurency", "4");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--concurency");
    }

    @Test
    void zeroConcurrencyIsAUsageError() {
        CapturedRun outcome = CapturedRun.of("run", "--concurrency", "0", "--url", "http://127.0.0.1:1");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--concurrency must be at least 1");
    }

    @Test
    void sessionsCannotReplayADataset() {
        CapturedRun outcome = CapturedRun.of("run", "--sessions", "3", "--trace", "pom.xml");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--sessions makes synthetic conversations");
    }

    @Test
    void thinkTimeWithoutSessionsIsAUsageError() {
        CapturedRun outcome = CapturedRun.of("run", "--think-time", "500");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--think-time and --max-sessions apply only with --sessions");
    }

    @Test
    void badDurationIsAUsageError() {
        CapturedRun outcome = CapturedRun.of("run", "--duration", "soon");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
    }

    @Test
    void bothLoadModelsAtOnceIsAUsageError() {
        CapturedRun outcome = CapturedRun.of("run", "--concurrency", "2", "--request-rate", "5");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
    }

    @Test
    void unreachableServerCannotStart() {
        CapturedRun outcome = CapturedRun.of("run", "--url", "http://127.0.0.1:1", "--num-requests", "1",
                "--output-dir", System.getProperty("java.io.tmpdir") + "/llmload-unreachable-test");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_CANNOT_START);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("cannot reach http://127.0.0.1:1/v1");
    }

    @Test
    void badUrlIsAUsageError() {
        CapturedRun outcome = CapturedRun.of("run", "--url", "ftp://example");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
    }

    @Test
    void everyCommandHasHelpAndVersion() {
        for (String command : new String[] {"run"}) {
            CapturedRun help = CapturedRun.of(command, "--help");
            assertThat(help.exitCode()).isZero();
            assertThat(help.out()).contains("Usage: llmload " + command);
        }
        CapturedRun version = CapturedRun.of("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("llmload ");
    }
}
