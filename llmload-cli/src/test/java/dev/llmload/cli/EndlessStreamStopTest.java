package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that streams valid tokens without end, as fast as it can write them, to a real
 * {@code llmload run} process: the response limits end each stream, and SIGTERM ends the run
 * within its grace with a report of what finished.
 */
@Tag("loopback")
@Tag("process")
class EndlessStreamStopTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] TOKENS = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
            .repeat(256)
            .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void sigtermEndsARunAgainstEndlessStreamsWithinItsGrace() throws Exception {
        AtomicInteger started = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "endless-stream");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/v1/models", exchange -> {
            byte[] body = "{\"data\":[{\"id\":\"endless\",\"owned_by\":\"test\"}]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            started.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (System.nanoTime() < until) {
                    out.write(TOKENS);
                }
            } catch (IOException e) {
                // The client ended the stream.
            }
        });
        server.start();
        try {
            Path runDir = dir.resolve("run");
            Path log = dir.resolve("console.log");
            Process run = CliProcess.start(
                    log,
                    "run",
                    "--url",
                    "http://127.0.0.1:" + server.getAddress().getPort(),
                    "--concurrency",
                    "4",
                    "--duration",
                    "10m",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "16",
                    "--grace",
                    "1s",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    runDir.toString());
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (started.get() < 12 && System.nanoTime() < deadline && run.isAlive()) {
                Thread.sleep(50);
            }
            assertThat(run.isAlive()).as(Files.readString(log)).isTrue();
            assertThat(started.get()).as("requests reached the server").isGreaterThanOrEqualTo(12);

            CliProcess.signal(run, "TERM");
            // The grace is 1 s; the bound leaves room for a loaded machine and writing the report.
            boolean ended = run.waitFor(30, TimeUnit.SECONDS);
            if (!ended) {
                run.destroyForcibly();
            }
            assertThat(ended).as("the run ended after SIGTERM").isTrue();
            assertThat(run.exitValue()).as(Files.readString(log)).isEqualTo(143);

            JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
            assertThat(report.at("/run/interrupted").asBoolean()).isTrue();
            long lines = Files.readAllLines(runDir.resolve("requests.jsonl")).size();
            assertThat(report.at("/results/requests/attempted").asLong())
                    .isEqualTo(lines)
                    .isPositive();
            assertThat(report.at("/results/errors/protocol/count").asLong())
                    .as("streams ended by the token bound")
                    .isPositive();
            assertThat(report.at("/results/errors/protocol/samples/0").asText()).contains("--max-tokens-factor");
        } finally {
            server.stop(0);
        }
    }
}
