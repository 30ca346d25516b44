package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Bounds;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.load.Timeouts;
import dev.llmload.metrics.RunResults;
import dev.llmload.record.Journal;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every failure the simulator can inject, produced on demand (a fault rule at rate 1.0) and run
 * through a whole benchmark: the client files it under the failure class of DESIGN.md §3 and keeps
 * the timings it had measured before the failure, in its records and in {@code requests.jsonl}.
 */
@Tag("loopback")
@Tag("timing")
class FailureClassificationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int REQUESTS = 4;
    private static final int OUTPUT_TOKENS = 8;

    @TempDir
    Path dir;

    /**
     * @param fault        the simulator's fault spec, applied to every request
     * @param timeouts     the client's limits
     * @param outcome      the journal's {@code outcome}
     * @param timeoutKind  the journal's {@code timeout_kind}, or null
     * @param httpStatus   the journal's {@code http_status}
     * @param tokensKept   token events the journal keeps for each failed request
     * @param serverOutcome what the simulator's ground-truth log says of the request; alternatives
     *                      separated by {@code |} where the client and server race
     */
    record Case(
            String fault,
            Timeouts timeouts,
            String outcome,
            String timeoutKind,
            int httpStatus,
            int tokensKept,
            String serverOutcome) {
        @Override
        public String toString() {
            return fault + " -> " + outcome + (timeoutKind == null ? "" : " (" + timeoutKind + ")");
        }
    }

    static Stream<Case> cases() {
        Timeouts none = Timeouts.defaults();
        Timeouts idle = new Timeouts(Duration.ofSeconds(5), null, Duration.ofMillis(250), Duration.ofSeconds(30));
        Timeouts firstToken = new Timeouts(Duration.ofSeconds(5), Duration.ofMillis(250), null, Duration.ofSeconds(30));
        return Stream.of(
                new Case("http-400", none, "http_4xx", null, 400, 0, "http_400"),
                new Case("http-429", none, "rate_limited", null, 429, 0, "http_429"),
                new Case("http-500", none, "http_5xx", null, 500, 0, "http_500"),
                new Case("http-503", none, "http_5xx", null, 503, 0, "http_503"),
                new Case("disconnect-after:3", none, "protocol", null, 200, 3, "disconnect"),
                new Case("stream-error-after:3", none, "stream_error", null, 200, 3, "stream_error"),
                // The client drops the connection at the bad line; the simulator may finish first.
                new Case("malformed-after:3", none, "protocol", null, 200, 3, "client_gone|success"),
                // Token 4 is held back well past the idle limit: three tokens were timed before it.
                new Case("stall:4:2000", idle, "timeout", "idle", 200, 3, "client_gone"),
                new Case("stall:1:2000", firstToken, "timeout", "first_token", 200, 0, "client_gone"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachInjectedFailureIsFiledUnderItsClassWithItsPartialTimings(Case c) throws Exception {
        BenchmarkRun.Result result;
        Path truthFile = dir.resolve("ground-truth.jsonl");
        try (SimServer sim = FixedSimulator.start(
                10,
                5,
                Map.of(
                        "faults",
                        List.of(c.fault() + "@1.0"),
                        "retryAfterSeconds",
                        7,
                        "groundTruth",
                        truthFile.toString()))) {
            result = SimulatorRuns.run(withTimeouts(
                    SimulatorRuns.closedLoop(sim.url(), 2, REQUESTS, 16, OUTPUT_TOKENS, dir), c.timeouts()));
        }

        RunResults r = result.report().results();
        assertThat(r.requests().attempted()).isEqualTo(REQUESTS);
        assertThat(r.requests().succeeded()).isZero();
        assertThat(r.errors()).containsOnlyKeys(c.outcome());
        assertThat(r.errors().get(c.outcome()).count()).isEqualTo(REQUESTS);
        if (c.timeoutKind() != null) {
            assertThat(r.errors().get("timeout").byTimeoutKind())
                    .containsExactly(Map.entry(c.timeoutKind(), (long) REQUESTS));
            assertThat(r.requests().timedOut()).isEqualTo(REQUESTS);
        }
        // Failed requests stay out of the latency statistics.
        assertThat(r.ttftMs().count()).isZero();

        List<String> lines = Files.readAllLines(dir.resolve(Journal.FILE_NAME));
        assertThat(lines).hasSize(REQUESTS);
        Map<String, JsonNode> truthById = new HashMap<>();
        for (String line : Files.readAllLines(truthFile)) {
            JsonNode truth = JSON.readTree(line);
            truthById.put(truth.get("request_id").asText(), truth);
        }
        for (String line : lines) {
            JsonNode entry = JSON.readTree(line);
            assertThat(entry.get("outcome").asText()).as(line).isEqualTo(c.outcome());
            assertThat(entry.get("http_status").asInt()).as(line).isEqualTo(c.httpStatus());
            assertThat(entry.get("error").asText()).as(line).isNotBlank();
            assertThat(entry.path("timeout_kind").textValue()).as(line).isEqualTo(c.timeoutKind());
            assertThat(entry.path("retry_after").textValue()).as(line).isEqualTo(c.httpStatus() == 429 ? "7" : null);
            JsonNode truth = truthById.get(entry.get("request_id").asText());
            assertThat(truth.get("outcome").asText()).as(line).isIn((Object[])
                    c.serverOutcome().split("\\|"));
            JsonNode tokenTimes = entry.get("token_times_ms");
            JsonNode serverTimes = truth.get("token_times_ms");
            assertThat(tokenTimes).as(line).hasSize(c.tokensKept());
            assertThat(serverTimes.size()).as(line).isGreaterThanOrEqualTo(c.tokensKept());
            for (int i = 0; i < tokenTimes.size(); i++) {
                // Measured from the send, the client's times include the trip the server's do not.
                assertThat(tokenTimes.get(i).asDouble())
                        .as(line)
                        .isGreaterThanOrEqualTo(serverTimes.get(i).asDouble());
            }
            if (c.tokensKept() > 0) {
                assertThat(entry.get("ttft_ms").asDouble())
                        .as(line)
                        .isEqualTo(tokenTimes.get(0).asDouble());
                assertThat(entry.get("output_tokens").asInt()).as(line).isEqualTo(c.tokensKept());
            } else {
                assertThat(entry.get("ttft_ms").isNull()).as(line).isTrue();
            }
        }
    }

    /**
     * An engine pause on an open-loop run: the schedule keeps sending through it, and the latency
     * from each request's intended send shows the pause (no coordinated omission).
     */
    @Test
    void anEnginePauseShowsInLatencyFromTheIntendedSendWhileTheScheduleKeepsSending() throws Exception {
        double rate = 40;
        int requests = 100; // 2.5 s of arrivals
        long pauseMs = 600;
        BenchmarkRun.Result result;
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (SimServer sim = FixedSimulator.start(10, 5, Map.of())) {
            RunConfig closed = SimulatorRuns.closedLoop(sim.url(), 1, requests, 16, OUTPUT_TOKENS, dir);
            RunConfig open = closed.withLoad(Load.open(rate, Load.Arrival.CONSTANT, null, null));
            HttpRequest pause = HttpRequest.newBuilder(URI.create(sim.url() + "/llmload/pause?ms=" + pauseMs))
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            timer.schedule(
                    () -> HttpClient.newHttpClient().send(pause, HttpResponse.BodyHandlers.discarding()),
                    1000,
                    TimeUnit.MILLISECONDS);
            result = SimulatorRuns.run(open);
        } finally {
            timer.shutdownNow();
        }

        RunResults r = result.report().results();
        assertThat(r.requests().succeeded()).isEqualTo(requests);
        // The schedule was kept: no request waited for another before it was sent ...
        assertThat(r.clientQueueTimeMs().p99()).as(HostLoad.describe()).isLessThan(HostLoad.slackMs(50.0));
        // ... so requests arrived during the pause, and the first of them waited nearly all of it.
        List<Double> fromIntended = new ArrayList<>();
        result.records()
                .forEach(rec -> fromIntended.add(
                        (rec.timings().firstTokenNanos() - rec.timings().intendedSendNanos()) / 1e6));
        long caughtInPause = fromIntended.stream().filter(ms -> ms > 100).count();
        assertThat(caughtInPause).isBetween((long) (rate * pauseMs / 1000 * 0.5), (long) (rate * pauseMs / 1000 * 2));
        assertThat(r.ttftFromIntendedMs().max()).isGreaterThan(pauseMs * 0.8);
        assertThat(r.ttftFromIntendedMs().p99()).isGreaterThan(pauseMs * 0.5);
        // Most requests never met the pause: the median is the simulator's 10 ms.
        assertThat(r.ttftFromIntendedMs().p50()).isLessThan(60.0);
    }

    private static RunConfig withTimeouts(RunConfig c, Timeouts timeouts) {
        Bounds b = c.bounds();
        return new RunConfig(
                c.target(),
                c.load(),
                c.data(),
                c.sessions(),
                new Bounds(b.numRequests(), b.duration(), b.warmup(), b.warmupTime(), timeouts, b.grace()),
                c.client(),
                c.telemetry(),
                c.output(),
                c.slo(),
                c.seed(),
                c.scenario());
    }
}
