package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing a server says reaches the terminal as an escape sequence: a model id and error messages
 * that would set the window title and clear the screen are printed escaped, by {@code run} and by
 * {@code report} of a journal that holds them raw.
 */
@Tag("loopback")
@Tag("process")
class TerminalEscapesTest {

    /** JSON text: an OSC title change, a screen clear, a bell. */
    private static final String HOSTILE = "\\u001b]0;owned\\u0007\\u001b[2J\\u009b1m";

    @TempDir
    Path dir;

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static void assertNoControlCharacters(String printed) {
        assertThat(printed.chars().filter(c -> (c < 0x20 && c != '\n' && c != '\r') || (c >= 0x7f && c <= 0x9f)))
                .as("control characters printed: %s", printed)
                .isEmpty();
        // Nor a line or paragraph separator, nor an invisible format character (zero-width, bidi).
        assertThat(printed.chars()
                        .filter(c -> c >= 0xa0
                                && (Character.getType(c) == Character.FORMAT
                                        || Character.getType(c) == Character.LINE_SEPARATOR
                                        || Character.getType(c) == Character.PARAGRAPH_SEPARATOR)))
                .as("invisible characters printed: %s", printed)
                .isEmpty();
    }

    @Test
    void separatorsAndZeroWidthCharactersOfAnIndependentServerArePrintedEscaped() throws Exception {
        try (HostileServer server = HostileServer.start(dir, "unicode")) {
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    server.url(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "2",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "4",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("run").toString());

            assertThat(run.exitCode()).as(run.err()).isEqualTo(RunCommand.EXIT_FAILED_RUN);
            assertNoControlCharacters(run.out());
            assertNoControlCharacters(run.err());
            // The model's name and the error sample, each with its hidden characters shown.
            String shown = "a\\u2028b\\u2029c\\u200bd\\u200de\\u202ef\\u200fg\\u001b[31mh";
            assertThat(run.out()).contains("Model:").contains("m" + shown).contains("e.g. HTTP 500: e" + shown);
        }
    }

    @Test
    void aRunPrintsTheServersModelIdAndErrorsEscaped() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(
                "/v1/models",
                exchange -> send(
                        exchange, 200, "{\"data\":[{\"id\":\"m" + HOSTILE + "\",\"owned_by\":\"x" + HOSTILE + "\"}]}"));
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            send(exchange, 500, "{\"error\":{\"message\":\"e" + HOSTILE + "\"}}");
        });
        server.start();
        try {
            CapturedRun run = CapturedRun.of(
                    "run",
                    "--url",
                    "http://127.0.0.1:" + server.getAddress().getPort(),
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "2",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "4",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    dir.resolve("run").toString());

            // Every request failed: the run finished, and says so by its exit code.
            assertThat(run.exitCode()).as(run.err()).isEqualTo(RunCommand.EXIT_FAILED_RUN);
            assertNoControlCharacters(run.out());
            assertNoControlCharacters(run.err());
            assertThat(run.out()).contains("m\\u001b]0;owned\\u0007\\u001b[2J\\u009b1m");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aReportOfAJournalHoldingRawEscapesPrintsThemEscaped() throws Exception {
        CapturedRun run = CapturedRun.of(
                "run",
                "--concurrency",
                "1",
                "--num-requests",
                "3",
                "--input-tokens",
                "8",
                "--output-tokens",
                "4",
                "--output-dir",
                dir.resolve("sim").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path journal = dir.resolve("sim").resolve("requests.jsonl");
        String raw = Files.readString(journal)
                .replaceFirst(
                        "\"outcome\":\"success\"",
                        Matcher.quoteReplacement("\"outcome\":\"http_5xx\",\"error\":\"e" + HOSTILE + "\""));
        Files.writeString(journal, raw);
        Files.delete(dir.resolve("sim").resolve("report.json"));

        CapturedRun report = CapturedRun.of("report", dir.resolve("sim").toString());

        assertThat(report.exitCode()).as(report.err()).isZero();
        assertNoControlCharacters(report.out());
        assertNoControlCharacters(report.err());
        assertThat(report.out()).contains("http_5xx").contains("e\\u001b]0;owned");
    }
}
