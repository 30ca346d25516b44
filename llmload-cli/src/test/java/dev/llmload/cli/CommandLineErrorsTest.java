package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        assertThat(outcome.err())
                .contains(
                        "--think-time, --max-sessions, --system-prompt-tokens and the subagent options apply only with --sessions");
    }

    @Test
    void aCountOfSessionsBelowOneOrNotANumberIsAUsageError() {
        CapturedRun zero = CapturedRun.of("run", "--sessions", "3", "--num-sessions", "0");
        assertThat(zero.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(zero.err());
        assertThat(zero.err()).contains("--num-sessions must be at least 1, got 0");
        CapturedRun negative = CapturedRun.of("run", "--sessions", "3", "--num-sessions", "-2");
        assertThat(negative.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(negative.err());
        assertThat(negative.err()).contains("--num-sessions must be at least 1, got -2");
        CapturedRun words = CapturedRun.of("run", "--sessions", "3", "--num-sessions", "five");
        assertThat(words.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(words.err());
        assertThat(words.err()).contains("--num-sessions");
    }

    @Test
    void aCountOfSessionsWithoutSessionsIsRefused(@TempDir Path dir) throws Exception {
        CapturedRun alone = CapturedRun.of("run", "--num-sessions", "5");
        assertThat(alone.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(alone.err());
        assertThat(alone.err())
                .contains("--num-sessions counts sessions: it applies with --sessions (or --scenario agentic) "
                        + "or a session --trace");
        // A trace whose first entry tells independent requests is refused when it is read, before any load.
        Path trace = Files.writeString(
                dir.resolve("requests.jsonl"), "{\"timestamp\":0,\"input_length\":8,\"output_length\":4}\n");
        CapturedRun requests = CapturedRun.of(
                "run",
                "--trace",
                trace.toString(),
                "--num-sessions",
                "5",
                "--output-dir",
                dir.resolve("run").toString());
        assertThat(requests.exitCode()).isEqualTo(Main.EXIT_CANNOT_START);
        assertOneLineWithoutStackTrace(requests.err());
        assertThat(requests.err()).contains("--num-sessions counts sessions, and the --trace " + trace);
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
    void unreachableServerCannotStart(@TempDir Path dir) {
        // A directory of its own: a fixed one under /tmp is shared with every other build on the host.
        CapturedRun outcome = CapturedRun.of(
                "run",
                "--url",
                "http://127.0.0.1:1",
                "--num-requests",
                "1",
                "--output-dir",
                dir.resolve("unreachable").toString());
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

    @Test
    void aMissingApiKeyFileIsOneLine() {
        CapturedRun outcome =
                CapturedRun.of("run", "--url", "http://127.0.0.1:1", "--api-key-file", "/nonexistent/llmload-key");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--api-key-file").contains("/nonexistent/llmload-key");
    }

    @Test
    void aLengthDistributionMissingAPartIsAUsageError() {
        CapturedRun outcome = CapturedRun.of("run", "--url", "http://127.0.0.1:1", "--input-tokens", "uniform:10");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertOneLineWithoutStackTrace(outcome.err());
        assertThat(outcome.err()).contains("--input-tokens");
    }

    @Test
    void simOnAPortInUseIsOneLine(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path log = dir.resolve("sim.log");
            Process sim =
                    CliProcess.start(log, "sim", "--host", "127.0.0.1", "--port", String.valueOf(taken.getLocalPort()));
            boolean ended = sim.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                sim.destroyForcibly();
            }
            assertThat(ended).as("the simulator started on a port in use").isTrue();
            assertThat(sim.exitValue()).isEqualTo(Main.EXIT_CANNOT_START);
            String err = Files.readString(log)
                    .lines()
                    .filter(l -> !l.startsWith("SLF4J") && !l.startsWith("WARNING:"))
                    .collect(Collectors.joining("\n"));
            assertOneLineWithoutStackTrace(err);
            assertThat(err).contains(String.valueOf(taken.getLocalPort()));
        }
    }

    @Test
    void aKeySentInPlainTextToAnotherHostIsWarnedAbout(@TempDir Path dir) throws Exception {
        String address = nonLoopbackAddress();
        Assumptions.assumeTrue(address != null, "this host has no non-loopback IPv4 address to aim at");
        Path keyFile = Files.writeString(dir.resolve("key"), "sk-secret-123\n");
        // Nothing listens on port 1 there: the run stops at once, after the warning.
        CapturedRun outcome = CapturedRun.of(
                "run",
                "--url",
                "http://" + address + ":1",
                "--api-key-file",
                keyFile.toString(),
                "--num-requests",
                "1");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_CANNOT_START);
        List<String> lines = outcome.err().strip().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.getFirst()).contains("warning").contains("plain http").contains(address);
        assertThat(outcome.err()).doesNotContain("sk-secret-123").doesNotContain("Exception");

        CapturedRun loopback = CapturedRun.of(
                "run", "--url", "http://127.0.0.1:1", "--api-key-file", keyFile.toString(), "--num-requests", "1");
        assertThat(loopback.err()).doesNotContain("warning");
    }

    private static String nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (nic.isUp() && !nic.isLoopback()) {
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                        return a.getHostAddress();
                    }
                }
            }
        }
        return null;
    }
}
