package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Servers that answer with something no well-behaved server sends, over real loopback HTTP: each
 * answer is bounded or classed, and nothing the server says can take over the client's own facts.
 * The test request asks for at most 2 output tokens.
 */
@Tag("loopback")
class HostileServerTest {

    private static final String TOKEN = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n";

    /** Answers every completion with {@code handler}; stops when closed. */
    private static final class Server implements AutoCloseable {
        final HttpServer http;
        final AtomicBoolean closed = new AtomicBoolean();

        Server(HttpHandler handler) throws IOException {
            http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.createContext("/v1/chat/completions", exchange -> {
                exchange.getRequestBody().readAllBytes();
                try {
                    handler.handle(exchange);
                } catch (IOException e) {
                    // The client hung up: what these tests expect of a hostile answer.
                } finally {
                    exchange.close();
                }
            });
            http.start();
        }

        String url() {
            return "http://127.0.0.1:" + http.getAddress().getPort();
        }

        @Override
        public void close() {
            closed.set(true);
            http.stop(0);
        }
    }

    private static FinishedRequest answer(HttpHandler handler, Timeouts timeouts) throws Exception {
        Dialect dialect = Dialect.of(new RequestOptions(ApiKind.CHAT, "scripted", true, false, null));
        try (Server server = new Server(handler);
                LoadHttpClient client =
                        new LoadHttpClient(Endpoint.openAiBase(server.url()), null, 1, Duration.ofSeconds(5), false)) {
            FinishedRequest finished =
                    TestRequest.send(client, dialect, timeouts, "client-id-1", Duration.ofSeconds(60));
            assertThat(finished).as("the request finished").isNotNull();
            return finished;
        }
    }

    private static Outcome.Failure failure(FinishedRequest finished) {
        assertThat(finished.outcome()).isInstanceOf(Outcome.Failure.class);
        return (Outcome.Failure) finished.outcome();
    }

    private static void sse(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
    }

    @Test
    void aRedirectIsClassedAndSaysWhereItPointsWithoutBeingFollowed() throws Exception {
        FinishedRequest finished = answer(
                exchange -> {
                    exchange.getResponseHeaders().set("Location", "http://elsewhere.example/v1/chat/completions");
                    exchange.sendResponseHeaders(307, -1);
                },
                Timeouts.defaults());

        assertThat(failure(finished).failureClass()).isEqualTo(FailureClass.REDIRECT);
        assertThat(failure(finished).message())
                .contains("307")
                .contains("http://elsewhere.example/v1/chat/completions");
    }

    @Test
    void theRequestIdIsTheClientsOwnWhateverTheServerSays() throws Exception {
        FinishedRequest finished = answer(
                exchange -> {
                    exchange.getResponseHeaders().set("x-request-id", "same-for-everyone");
                    sse(exchange);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write((TOKEN + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
                    }
                },
                Timeouts.defaults());

        assertThat(finished.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(finished.requestId()).isEqualTo("client-id-1");
    }

    @Test
    void outputFarBeyondMaxTokensIsEndedAsAProtocolFailure() throws Exception {
        FinishedRequest finished = answer(
                exchange -> {
                    sse(exchange);
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 500; i++) {
                            out.write(TOKEN.getBytes(StandardCharsets.UTF_8));
                        }
                        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
                    }
                },
                Timeouts.defaults());

        assertThat(failure(finished).failureClass()).isEqualTo(FailureClass.PROTOCOL);
        assertThat(failure(finished).message()).contains("max_tokens");
        assertThat(finished.timings().tokenEventNanos().length)
                .isLessThanOrEqualTo(ResponseLimits.defaults().maxTokenEvents(2));
    }

    @Test
    void anEndlessEventIsEndedAtTheEventLimit() throws Exception {
        Timeouts timeouts = Timeouts.defaults().withLimits(new ResponseLimits(64 * 1024, 1L << 30, 4, 64));
        FinishedRequest finished = answer(
                exchange -> {
                    sse(exchange);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
                                .getBytes(StandardCharsets.UTF_8));
                        byte[] filler = "x".repeat(8192).getBytes(StandardCharsets.UTF_8);
                        for (int i = 0; i < 100_000; i++) {
                            out.write(filler);
                        }
                    }
                },
                timeouts);

        assertThat(failure(finished).failureClass()).isEqualTo(FailureClass.PROTOCOL);
        assertThat(failure(finished).message()).contains("--max-event-bytes").contains("65536");
    }

    @Test
    void anEndlessBodyIsEndedAtTheResponseLimit() throws Exception {
        Timeouts timeouts = Timeouts.defaults().withLimits(new ResponseLimits(64 * 1024, 256 * 1024, 4, 64));
        FinishedRequest finished = answer(
                exchange -> {
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        byte[] filler = "{\"a\":1}\n".repeat(1024).getBytes(StandardCharsets.UTF_8);
                        for (int i = 0; i < 100_000; i++) {
                            out.write(filler);
                        }
                    }
                },
                timeouts);

        assertThat(failure(finished).failureClass()).isEqualTo(FailureClass.PROTOCOL);
        assertThat(failure(finished).message()).contains("--max-response-bytes").contains("262144");
    }

    @Test
    void anEndlessStreamOfValidTokensEndsAtTheRequestTimeout() throws Exception {
        // The token bound is lifted, and the stream paced below the hard cap on events a response
        // may hold (a quarter of it in the 2 s), so that only the request timeout can end it.
        Timeouts timeouts = new Timeouts(
                Duration.ofSeconds(5),
                null,
                null,
                Duration.ofSeconds(2),
                new ResponseLimits(1 << 20, Long.MAX_VALUE, Integer.MAX_VALUE / 4, 0));
        FinishedRequest finished = answer(
                exchange -> {
                    sse(exchange);
                    try (OutputStream out = exchange.getResponseBody()) {
                        byte[] tokens = TOKEN.repeat(256).getBytes(StandardCharsets.UTF_8);
                        long until = System.nanoTime() + Duration.ofSeconds(50).toNanos();
                        while (System.nanoTime() < until) {
                            out.write(tokens);
                            out.flush();
                            try {
                                Thread.sleep(8);
                            } catch (InterruptedException stopped) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                        }
                    }
                },
                timeouts);

        assertThat(failure(finished).failureClass()).isEqualTo(FailureClass.TIMEOUT);
        assertThat(finished.timings().endNanos() - finished.timings().sentNanos())
                .as("ended by the 2 s limit, long before the server's 50 s stream ended")
                .isLessThan(Duration.ofSeconds(40).toNanos());
    }
}
