package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.llmload.record.Journal;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults injected into real {@code llmload run} processes: a kill -9 at random points, a response
 * whose local token count takes seconds, a disk that fills up. Whatever happens, every request
 * the server finished is a whole line in the journal, and the run directory rebuilds.
 */
@Tag("loopback")
@Tag("process")
class FaultInjectionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /**
     * One response of 60 events of a million letters each (about a minute of local token counting
     * on a busy machine), then small answers that also need the local tokenizer: the small ones
     * are on disk while the huge one is still being counted, and a kill -9 loses none of them.
     */
    @Test
    void countingAHugeResponseNeverHoldsBackTheLinesOfLaterRequests() throws Exception {
        int smallAnswers = 20;
        AtomicInteger posts = new AtomicInteger();
        AtomicInteger smallFinished = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        String hugeEvent = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + "abcdefghij".repeat(100_000)
                + "\"}}]}\n\n";
        HttpServer server = server();
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            int post = posts.incrementAndGet();
            boolean huge = post == 2;
            if (!huge && post > 2 && smallFinished.get() >= smallAnswers) {
                // The count the journal is checked against is final: later requests get no answer.
                await(release);
                exchange.close();
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                if (huge) {
                    byte[] event = hugeEvent.getBytes(StandardCharsets.US_ASCII);
                    for (int i = 0; i < 60; i++) {
                        out.write(event);
                    }
                } else {
                    for (String word : List.of("one", " two", " three")) {
                        out.write(("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + word + "\"}}]}\n\n")
                                .getBytes(StandardCharsets.US_ASCII));
                    }
                }
                out.write("data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII));
            }
            if (!huge && post > 2) {
                smallFinished.incrementAndGet();
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
                    "1",
                    "--num-requests",
                    "1000",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "16",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    runDir.toString());
            try {
                awaitOrFail(
                        () -> smallFinished.get() >= smallAnswers,
                        Duration.ofSeconds(120),
                        run,
                        log,
                        "the server answered " + smallAnswers + " small requests after the huge one");
                // Lines are written as each request ends; the bound is slack for a loaded machine,
                // far below the time the huge response takes to count. Only the small answers'
                // lines count: the huge one has a provisional line of its own by then.
                awaitOrFail(
                        () -> smallAnswersInJournal(runDir) >= smallAnswers,
                        Duration.ofSeconds(20),
                        run,
                        log,
                        "the journal holds the " + smallAnswers + " small requests that finished");
            } finally {
                run.destroyForcibly();
                assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(smallAnswersInJournal(runDir))
                    .as("small answers on disk after kill -9")
                    .isEqualTo(smallAnswers);
        } finally {
            release.countDown();
            server.stop(0);
        }
    }

    /**
     * A journal whose disk fills after a few lines (simulated through the journal's own file
     * channel, since no small file system can be mounted here): the run stops at once with one
     * line naming the file and the reason, every line written is whole, and {@code llmload
     * report} rebuilds the run from them.
     */
    @Test
    void aFullDiskStopsTheRunInOneLineAndLeavesARebuildableDirectory() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.load(
                null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 2, "prefillMsPerToken", 0, "jitter", 0)))) {
            Path runDir = dir.resolve("full");
            Path log = dir.resolve("full.log");
            long freeBytes = 6000;
            Process run = CliProcess.start(
                    List.of("-D" + Journal.SIMULATED_FREE_BYTES_PROPERTY + "=" + freeBytes),
                    null,
                    log,
                    "run",
                    "--url",
                    sim.url(),
                    "--concurrency",
                    "2",
                    "--num-requests",
                    "5000",
                    "--input-tokens",
                    "8",
                    "--output-tokens",
                    "8",
                    "--server-metrics",
                    "off",
                    "--output-dir",
                    runDir.toString());
            boolean ended = run.waitFor(120, TimeUnit.SECONDS);
            if (!ended) {
                run.destroyForcibly();
            }
            String console = Files.readString(log);
            assertThat(ended)
                    .as("the run stopped at the failed write: " + console)
                    .isTrue();
            assertThat(run.exitValue()).as(console).isEqualTo(Main.EXIT_CANNOT_START);
            assertThat(console).doesNotContain("\tat ").doesNotContain("Exception");
            String error = console.lines()
                    .filter(line -> line.startsWith("llmload: "))
                    .findFirst()
                    .orElseThrow();
            assertThat(error)
                    .contains("No space left on device")
                    .contains(runDir.resolve(Journal.FILE_NAME).toString())
                    .contains("llmload report");

            String journal = Files.readString(runDir.resolve(Journal.FILE_NAME));
            assertThat(journal).as("no torn last line").endsWith("\n");
            assertThat(journal.length()).isLessThanOrEqualTo((int) freeBytes);
            List<String> lines = journal.lines().toList();
            assertThat(lines).isNotEmpty();
            for (String line : lines) {
                assertThat(JSON.readTree(line).get("outcome").asText()).isEqualTo("success");
            }
            assertThat(runDir.resolve("report.json")).doesNotExist();

            assertThat(Main.execute("report", runDir.toString())).isZero();
            JsonNode report = JSON.readTree(runDir.resolve("report.json").toFile());
            assertThat(report.at("/results/requests/attempted").asLong()).isEqualTo(lines.size());
            assertThat(report.at("/results/requests/succeeded").asLong()).isEqualTo(lines.size());
        }
    }

    /**
     * Several short runs, each killed with kill -9 at a random point (seeded), mostly while answers
     * of 4 to 43 tokens 2 ms apart stream (a 10 ms TTFT before them): the simulator is
     * paused just before the kill so that its count of finished requests is final, and the journal
     * then holds exactly the requests the simulator finished, each as a whole line.
     */
    @Test
    @Tag("timing")
    void killMinusNineAtRandomPointsLosesNoFinishedRequest() throws Exception {
        Random random = new Random(13);
        for (int round = 0; round < 4; round++) {
            Path truth = dir.resolve("truth-" + round + ".jsonl");
            try (SimServer sim = SimServer.start(SimConfig.load(
                    null,
                    Map.of(
                            "engine",
                            "fixed",
                            "ttftMs",
                            10,
                            "itlMs",
                            2,
                            "prefillMsPerToken",
                            0,
                            "jitter",
                            0,
                            "groundTruth",
                            truth.toString())))) {
                Path runDir = dir.resolve("kill-" + round);
                Path log = dir.resolve("kill-" + round + ".log");
                Process run = CliProcess.start(
                        log,
                        "run",
                        "--url",
                        sim.url(),
                        "--concurrency",
                        Integer.toString(1 + random.nextInt(8)),
                        "--num-requests",
                        "100000",
                        "--input-tokens",
                        "16",
                        "--output-tokens",
                        Integer.toString(4 + random.nextInt(40)),
                        "--server-metrics",
                        "off",
                        "--output-dir",
                        runDir.toString());
                int linesBeforeKill = 1 + random.nextInt(60);
                try {
                    awaitOrFail(
                            () -> journalLines(runDir).size() >= linesBeforeKill,
                            Duration.ofSeconds(120),
                            run,
                            log,
                            linesBeforeKill + " journal lines");
                    Thread.sleep(random.nextInt(400));
                    sim.engine().pause(Duration.ofSeconds(60));
                    // Once paused, the simulator finishes nothing more, but tokens the engine emitted
                    // just before are still on their way through the event loops and the ground-truth
                    // writer: the two sets can be equal for a moment while both still grow. Wait until
                    // the server's set has stood still for 300 ms (a hundred times what the last
                    // tokens take to pass through; a second, as before, added 3 s to the test) and
                    // the journal has caught up with it, then kill.
                    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    Set<String> seen = finishedAtServer(truth);
                    long stillSince = System.nanoTime();
                    while (System.nanoTime() < deadline) {
                        Set<String> now = finishedAtServer(truth);
                        if (!now.equals(seen)) {
                            seen = now;
                            stillSince = System.nanoTime();
                        } else if (System.nanoTime() - stillSince
                                        >= Duration.ofMillis(300).toNanos()
                                && now.equals(succeededInJournal(runDir))) {
                            break;
                        }
                        Thread.sleep(50);
                    }
                } finally {
                    run.destroyForcibly();
                    assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();
                }
                Set<String> finished = finishedAtServer(truth);
                assertThat(finished).as("round %d", round).isNotEmpty();
                assertThat(succeededInJournal(runDir))
                        .as("round %d: the journal after kill -9", round)
                        .isEqualTo(finished);
            }
        }
    }

    private static Set<String> finishedAtServer(Path truth) throws IOException {
        Set<String> ids = new HashSet<>();
        if (!Files.exists(truth)) {
            return ids;
        }
        for (String line : wholeLines(truth)) {
            JsonNode record = JSON.readTree(line);
            String id = record.get("request_id").asText();
            // The run's test request is sent before the run and journaled by no one.
            if ("success".equals(record.get("outcome").asText()) && !id.endsWith("-test")) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** The journal's lines of small answers (fewer than 10 output tokens), each of which must be a success. */
    private static long smallAnswersInJournal(Path runDir) throws IOException {
        long small = 0;
        for (String line : journalLines(runDir)) {
            JsonNode record = JSON.readTree(line);
            if (record.get("output_tokens").asInt() < 10) {
                assertThat(record.get("outcome").asText()).isEqualTo("success");
                small++;
            }
        }
        return small;
    }

    private static Set<String> succeededInJournal(Path runDir) throws IOException {
        Set<String> ids = new HashSet<>();
        for (String line : journalLines(runDir)) {
            JsonNode record = JSON.readTree(line);
            if ("success".equals(record.get("outcome").asText())) {
                ids.add(record.get("request_id").asText());
            }
        }
        return ids;
    }

    /** The journal's whole lines (a line being written as the test reads is left for the next look). */
    private static List<String> journalLines(Path runDir) throws IOException {
        Path journal = runDir.resolve(Journal.FILE_NAME);
        return Files.exists(journal) ? wholeLines(journal) : List.of();
    }

    private static List<String> wholeLines(Path file) throws IOException {
        String text = Files.readString(file);
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : text.substring(0, end).lines().toList();
    }

    /** A condition the test waits for, which may read files. */
    private interface Check {
        boolean holds() throws IOException;
    }

    private static void awaitOrFail(Check condition, Duration bound, Process run, Path log, String what)
            throws Exception {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.holds()) {
            if (!run.isAlive()) {
                throw new AssertionError("the run ended before " + what + ": " + Files.readString(log));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + bound + ": " + what);
            }
            Thread.sleep(50);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static HttpServer server() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fault-server");
            t.setDaemon(true);
            return t;
        }));
        server.createContext(
                "/v1/models", exchange -> send(exchange, "{\"data\":[{\"id\":\"faults\",\"owned_by\":\"test\"}]}"));
        return server;
    }

    private static void send(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
