package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.DialectFixtures;
import dev.llmload.protocol.ResponseEvents;
import dev.llmload.protocol.Usage;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.ServerTimings;
import dev.llmload.record.SessionTurn;
import dev.llmload.testsupport.HostLoad;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One request per native dialect over real loopback HTTP against a scripted server that plays the
 * dialect's documented stream ({@link DialectFixtures}) at known times: the server waits
 * {@value #FIRST_PAUSE_MS} ms, then writes message k at {@code FIRST_PAUSE_MS + k * GAP_MS}. No
 * message can arrive before it was written, so each token event's time must be at or after its
 * message's scripted time (exact: "never early"), and not long after it (a bound widened by the
 * host's load, {@code HostLoad}); TTFT, ITL and E2E all follow from those times. Token counts, finish reason and the server's timings must be the
 * fixture's; the dialect's error shape is {@code stream_error}, a stream cut before its end marker
 * {@code protocol}.
 */
@Tag("loopback")
@Tag("timing")
class NativeDialectLoopbackTest {

    private static final long FIRST_PAUSE_MS = 60;
    private static final long GAP_MS = 40;
    /** How late a message may be read on a quiet machine; widened by the host's load. */
    private static final double QUIET_SLACK_MS = 500;

    private static final String KEY = "sk-loopback-secret";

    static Stream<DialectFixtures> dialects() {
        return DialectFixtures.STREAMING.stream();
    }

    private record Answer(
            FinishedRequest finished, String path, String authorization, String xApiKey, String anthropicVersion) {}

    private static Answer send(DialectFixtures fixture, String stream) throws Exception {
        Dialect dialect = fixture.dialect();
        List<ScriptedSseServer.Step> steps = new ArrayList<>();
        steps.add(new ScriptedSseServer.Step("", FIRST_PAUSE_MS));
        List<String> messages = split(fixture, stream);
        for (int k = 0; k < messages.size(); k++) {
            steps.add(new ScriptedSseServer.Step(messages.get(k), k == messages.size() - 1 ? 0 : GAP_MS));
        }
        try (ScriptedSseServer server = new ScriptedSseServer(steps, null, fixture.contentType());
                LoadHttpClient client = new LoadHttpClient(
                        fixture.api().atServerRoot()
                                ? Endpoint.nativeBase(server.url() + "/v1")
                                : Endpoint.openAiBase(server.url()),
                        KEY,
                        dialect.keyHeader(),
                        1,
                        Duration.ofSeconds(5),
                        false)) {
            FinishedRequest finished =
                    TestRequest.send(client, dialect, Timeouts.defaults(), "loopback", Duration.ofSeconds(20));
            assertThat(finished).as("the request finished in time").isNotNull();
            return new Answer(
                    finished,
                    server.lastPath(),
                    server.lastHeader("Authorization"),
                    server.lastHeader("x-api-key"),
                    server.lastHeader("anthropic-version"));
        }
    }

    /** The stream's messages, as the fixture frames them. */
    private static List<String> split(DialectFixtures fixture, String stream) {
        if (stream.equals(fixture.stream())) {
            return fixture.messages();
        }
        return List.of(stream);
    }

    /** The index of the message each token event of the fixture comes from. */
    private static List<Integer> tokenMessageIndexes(DialectFixtures fixture) {
        List<Integer> indexes = new ArrayList<>();
        Dialect dialect = fixture.dialect();
        for (int k = 0; k < fixture.messages().size(); k++) {
            int before = countTexts(dialect, fixture, k);
            int after = countTexts(dialect, fixture, k + 1);
            for (int i = before; i < after; i++) {
                indexes.add(k);
            }
        }
        return indexes;
    }

    private static int countTexts(Dialect dialect, DialectFixtures fixture, int messages) {
        int[] texts = new int[1];
        ResponseEvents counting = new ResponseEvents() {
            @Override
            public void text(String content, String reasoning, long nanos) {
                texts[0]++;
            }

            @Override
            public void tokenCount(int tokens) {}

            @Override
            public void serverTimings(ServerTimings timings) {}

            @Override
            public void usage(Usage usage) {}

            @Override
            public void finishReason(String reason) {}

            @Override
            public void error(String message) {}

            @Override
            public void endMarker() {}
        };
        var decoder = dialect.newDecoder(counting);
        var framer = Framers.of(dialect.streamFraming(), decoder::message);
        framer.feed(
                io.netty.buffer.Unpooled.wrappedBuffer(
                        String.join("", fixture.messages().subList(0, messages))
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                0);
        return texts[0];
    }

    private static final Map<ApiKind, String> PATHS = Map.of(
            ApiKind.TGI, "/generate_stream",
            ApiKind.TRITON, "/v2/models/scripted/generate_stream",
            ApiKind.OLLAMA, "/api/generate",
            ApiKind.OLLAMA_CHAT, "/api/chat",
            ApiKind.LLAMACPP, "/completion",
            ApiKind.SGLANG, "/generate",
            ApiKind.ANTHROPIC, "/v1/messages",
            ApiKind.RESPONSES, "/v1/responses");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void tokenTimesCountsAndServerTimingsFollowTheScript(DialectFixtures fixture) throws Exception {
        Answer answer = send(fixture, fixture.stream());
        FinishedRequest f = answer.finished();

        assertThat(f.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(answer.path()).isEqualTo(PATHS.get(fixture.api()));
        long sent = f.timings().sentNanos();
        long[] times = f.timings().tokenEventNanos();
        List<Integer> fromMessage = tokenMessageIndexes(fixture);
        assertThat(times).hasSameSizeAs(fromMessage.toArray());
        for (int i = 0; i < times.length; i++) {
            long scriptedMs = FIRST_PAUSE_MS + fromMessage.get(i) * GAP_MS;
            assertThat((times[i] - sent) / 1e6)
                    .as("token event %d (message %d), %s", i, fromMessage.get(i), HostLoad.describe())
                    .isGreaterThanOrEqualTo(scriptedMs - 1.0)
                    .isLessThan(scriptedMs + HostLoad.slackMs(QUIET_SLACK_MS));
        }
        // TTFT is the first token event, of any channel; E2E ends at the last.
        assertThat(f.timings().firstTokenNanos()).isEqualTo(times[0]);
        assertThat(f.timings().lastTokenNanos()).isEqualTo(times[times.length - 1]);
        long lastMessageMs = FIRST_PAUSE_MS + (fixture.messages().size() - 1) * GAP_MS;
        assertThat((f.timings().endNanos() - sent) / 1e6).isGreaterThanOrEqualTo(lastMessageMs - 1.0);

        switch (fixture.api()) {
            case TGI -> {
                assertThat(f.usage()).isEqualTo(new Usage(7, 3));
                assertThat(f.serverTokenCounts()).containsExactly(1, 1);
                assertThat(f.finishReason()).isEqualTo("eos_token");
            }
            case TRITON -> {
                assertThat(f.usage()).isNull();
                assertThat(TokenEventsTest.events(f.tokenEventTexts())).containsExactly(" Machine", " learning", " is");
            }
            case OLLAMA -> {
                assertThat(f.usage()).isEqualTo(new Usage(26, 2));
                assertThat(f.serverTimings().prefillMs()).isEqualTo(130.079);
                assertThat(f.serverTimings().loadMs()).isEqualTo(6338.219291);
                assertThat(f.serverTimings().decodeMs()).isEqualTo(4232.71);
            }
            case OLLAMA_CHAT -> {
                assertThat(f.usage()).isEqualTo(new Usage(26, 2));
                assertThat(f.timings().firstContentNanos())
                        .as("first text after the thinking")
                        .isEqualTo(times[1]);
                assertThat(f.serverTimings().totalMs()).isEqualTo(4883.583458);
            }
            case LLAMACPP -> {
                assertThat(f.usage()).isEqualTo(new Usage(7, 2));
                assertThat(f.serverTimings().prefillMs()).isEqualTo(41.2);
                assertThat(f.serverTimings().decodeMs()).isEqualTo(180.3);
                assertThat(f.serverTimings().cachedPromptTokens()).isZero();
            }
            case SGLANG -> {
                assertThat(f.usage()).isEqualTo(new Usage(7, 4));
                assertThat(f.serverTokenCounts()).containsExactly(1, 2, 1);
                assertThat(TokenEventsTest.events(f.tokenEventTexts()))
                        .as("counted by the server, outside a session: not kept")
                        .containsExactly("", "", "");
                assertThat(f.serverTimings().totalMs()).isEqualTo(250.0);
            }
            case ANTHROPIC -> {
                assertThat(f.usage()).isEqualTo(new Usage(25, 15));
                assertThat(f.timings().firstContentNanos())
                        .as("first text after the thinking")
                        .isEqualTo(times[1]);
                assertThat(answer.xApiKey()).isEqualTo(KEY);
                assertThat(answer.anthropicVersion()).isEqualTo("2023-06-01");
                assertThat(answer.authorization()).isNull();
            }
            case RESPONSES -> {
                assertThat(f.usage()).isEqualTo(new Usage(12, 3));
                assertThat(f.timings().firstContentNanos()).isEqualTo(times[1]);
            }
            default -> throw new IllegalStateException();
        }
        if (fixture.api() != ApiKind.ANTHROPIC) {
            assertThat(answer.authorization()).isEqualTo("Bearer " + KEY);
            assertThat(answer.xApiKey()).isNull();
        }
    }

    /** A session's next turn carries the answer, so a turn keeps the text of events the server counted. */
    @Test
    void aSessionTurnKeepsTheTextTheServerCounted() throws Exception {
        DialectFixtures fixture = DialectFixtures.SGLANG;
        Dialect dialect = fixture.dialect();
        List<ScriptedSseServer.Step> steps = fixture.messages().stream()
                .map(m -> new ScriptedSseServer.Step(m, 0))
                .toList();
        RequestSpec turn = new RequestSpec(0, List.of(ChatMessage.user("Say hello.")), 3, 16, new SessionTurn(1, 0));
        try (ScriptedSseServer server = new ScriptedSseServer(steps, null, fixture.contentType());
                LoadHttpClient client = new LoadHttpClient(
                        fixture.api().atServerRoot()
                                ? Endpoint.nativeBase(server.url() + "/v1")
                                : Endpoint.openAiBase(server.url()),
                        null,
                        1,
                        Duration.ofSeconds(5),
                        false)) {
            CompletableFuture<FinishedRequest> recorded = new CompletableFuture<>();
            Launcher launcher = new Launcher(client, dialect, Timeouts.defaults(), recorded::complete, "", 0, 0, null);
            long now = System.nanoTime();
            launcher.send(PreparedRequest.encode(turn, dialect), "turn", false, now, now, finished -> {});
            FinishedRequest f = recorded.get(20, TimeUnit.SECONDS);

            assertThat(f.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(f.serverTokenCounts()).containsExactly(1, 2, 1);
            assertThat(TokenEventsTest.events(f.tokenEventTexts())).containsExactly(" The", " sky is", " blue");
            assertThat(f.tokenEventTexts().whole()).isEqualTo(" The sky is blue");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void theDialectsErrorShapeIsAStreamErrorWithItsMessage(DialectFixtures fixture) throws Exception {
        Answer answer = send(fixture, fixture.messages().getFirst() + fixture.errorTail());
        assertThat(answer.finished().outcome()).isInstanceOfSatisfying(Outcome.Failure.class, failure -> {
            assertThat(failure.failureClass()).isEqualTo(FailureClass.STREAM_ERROR);
            assertThat(failure.message()).isEqualTo(fixture.errorEvent().substring("error ".length()));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void aStreamCutBeforeItsEndMarkerIsAProtocolFailure(DialectFixtures fixture) throws Exception {
        Answer answer = send(fixture, fixture.truncated());
        if (fixture.dialect().endMarker() == null) {
            // Triton has no end marker: a body that ends cleanly is the whole answer.
            assertThat(answer.finished().outcome()).isEqualTo(Outcome.SUCCESS);
            return;
        }
        assertThat(answer.finished().outcome()).isInstanceOfSatisfying(Outcome.Failure.class, failure -> {
            assertThat(failure.failureClass()).isEqualTo(FailureClass.PROTOCOL);
            assertThat(failure.message())
                    .startsWith("the stream ended without " + fixture.dialect().endMarker());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void aMessageThatIsNotTheDialectsShapeIsAProtocolFailure(DialectFixtures fixture) throws Exception {
        String garbage =
                fixture.contentType().contains("ndjson") ? "<html>oops</html>\n" : "data: <html>oops</html>\n\n";
        Answer answer = send(fixture, fixture.messages().getFirst() + garbage);
        assertThat(answer.finished().outcome())
                .isInstanceOfSatisfying(
                        Outcome.Failure.class,
                        failure -> assertThat(failure.failureClass()).isEqualTo(FailureClass.PROTOCOL));
    }
}
