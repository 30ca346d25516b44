package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --header}, {@code --extra-body} and the sampling options reach the server as given, and a
 * credential given as a header reaches no file of the run directory. The server is the JDK's HTTP
 * server on loopback, answering as an OpenAI chat server and keeping what it was sent.
 */
@Tag("loopback")
class RequestExtrasLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BEARER = "sk-gateway-5b1e-DO-NOT-LEAK";
    private static final String ROUTE_TOKEN = "route-token-77c2-DO-NOT-LEAK";

    @TempDir
    Path dir;

    /** One request the server was sent: its headers and its body. */
    private record Received(Map<String, List<String>> headers, JsonNode body, String raw) {}

    private static void answer(HttpExchange exchange, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static HttpServer server(ConcurrentLinkedQueue<Received> received) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        // A gateway that routes by header: without it, no model list.
        server.createContext("/v1/models", exchange -> {
            if (!"pool-a".equals(exchange.getRequestHeaders().getFirst("x-route"))) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            answer(
                    exchange,
                    "application/json",
                    "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}");
        });
        server.createContext("/v1/chat/completions", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(new Received(
                    Map.copyOf(exchange.getRequestHeaders()),
                    JSON.readTree(body),
                    new String(body, StandardCharsets.UTF_8)));
            answer(exchange, "text/event-stream", """
                    data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}

                    data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" b"},"finish_reason":"length"}]}

                    data: {"id":"x","choices":[],"usage":{"prompt_tokens":16,"completion_tokens":2,"total_tokens":18}}

                    data: [DONE]

                    """);
        });
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        return server;
    }

    @Test
    void headersBodyFieldsAndSamplingReachTheServerAndCredentialsNoFile() throws Exception {
        ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
        HttpServer server = server(received);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        server.setExecutor(threads);
        server.start();
        Path runDir = dir.resolve("run");
        CapturedRun outcome;
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            outcome = CapturedRun.of(
                    "run",
                    "--url",
                    url,
                    "--concurrency",
                    "1",
                    "--num-requests",
                    "3",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "2",
                    "--server-metrics",
                    "off",
                    "--header",
                    "x-route: pool-a",
                    "--header",
                    "Authorization: Bearer " + BEARER,
                    "--header=X-Route-Token:" + ROUTE_TOKEN,
                    "--extra-body",
                    "{\"chat_template_kwargs\":{\"enable_thinking\":false},\"max_tokens\":7}",
                    "--temperature",
                    "0.3",
                    "--top-p",
                    "0.9",
                    "--top-k",
                    "20",
                    "--stop",
                    "END",
                    "--stop",
                    "###",
                    "--export",
                    "vllm",
                    "--output-dir",
                    runDir.toString());
        } finally {
            server.stop(0);
            threads.shutdownNow();
        }
        assertThat(outcome.exitCode()).as(outcome.err()).isZero();

        // The three requests of the run, and the one request that checks the server before it: all carry them.
        assertThat(received)
                .extracting(r -> r.headers().get("X-request-id").getFirst())
                .filteredOn(id -> !id.endsWith("-test"))
                .hasSize(3);
        assertThat(received).hasSize(4);
        for (Received request : received) {
            assertThat(request.headers().get("X-route")).containsExactly("pool-a");
            assertThat(request.headers().get("Authorization")).containsExactly("Bearer " + BEARER);
            assertThat(request.headers().get("X-route-token")).containsExactly(ROUTE_TOKEN);
            assertThat(request.headers().get("X-request-id")).hasSize(1);
            JsonNode body = request.body();
            assertThat(body.at("/chat_template_kwargs/enable_thinking").isBoolean())
                    .isTrue();
            assertThat(body.at("/chat_template_kwargs/enable_thinking").asBoolean())
                    .isFalse();
            // The extra body wins over llmload's own field, as in vLLM; the others stay.
            assertThat(body.path("max_tokens").asInt()).isEqualTo(7);
            assertThat(body.path("max_completion_tokens").asInt()).isEqualTo(2);
            assertThat(body.path("temperature").asDouble()).isEqualTo(0.3);
            assertThat(body.path("top_p").asDouble()).isEqualTo(0.9);
            assertThat(body.path("top_k").asInt()).isEqualTo(20);
            assertThat(body.path("stop")).extracting(JsonNode::asText).containsExactly("END", "###");
            assertThat(body.path("messages").isArray()).isTrue();
        }

        // inputs.jsonl holds each request of the run byte for byte as the server received it, and no header.
        Map<String, String> sent = new java.util.HashMap<>();
        received.forEach(r -> sent.put(r.headers().get("X-request-id").getFirst(), r.raw()));
        List<String> inputs = Files.readAllLines(runDir.resolve("inputs.jsonl"));
        assertThat(inputs).hasSize(3);
        for (String line : inputs) {
            JsonNode input = JSON.readTree(line);
            String id = input.path("request_id").asText();
            assertThat(sent).containsKey(id);
            String marker = ",\"body\":";
            assertThat(line.substring(line.indexOf(marker) + marker.length(), line.length() - 1))
                    .isEqualTo(sent.get(id));
            assertThat(input.path("index").asLong()).isEqualTo(Long.parseLong(id.substring(id.lastIndexOf('-') + 1)));
            assertThat(input.fieldNames()).toIterable().containsExactly("index", "request_id", "body");
        }

        JsonNode config = JSON.readTree(runDir.resolve("report.json").toFile()).path("config");
        assertThat(config.at("/headers/x-route").asText()).isEqualTo("pool-a");
        assertThat(config.at("/headers/Authorization").asText()).isEqualTo("[redacted]");
        assertThat(config.at("/headers/X-Route-Token").asText()).isEqualTo("[redacted]");
        assertThat(config.at("/extra_body/max_tokens").asInt()).isEqualTo(7);
        assertThat(config.path("top_k").asInt()).isEqualTo(20);

        String console = outcome.out() + outcome.err();
        assertThat(console).doesNotContain(BEARER).doesNotContain(ROUTE_TOKEN);
        try (Stream<Path> files = Files.walk(runDir)) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            assertThat(all)
                    .extracting(p -> p.getFileName().toString())
                    .contains("report.json", "requests.jsonl", "inputs.jsonl", "report.html");
            for (Path file : all) {
                String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                assertThat(text).as(file.toString()).doesNotContain(BEARER).doesNotContain(ROUTE_TOKEN);
            }
        }
    }

    @Test
    void aRepeatFromTheRecordKeepsWhatWasSentButNotTheRedactedCredential() throws Exception {
        var options = Main.commandLine();
        options.parseArgs(
                "run",
                "--header",
                "x-route: pool-a",
                "--header",
                "api-key: " + BEARER,
                "--extra-body",
                "{\"a\":1}",
                "--top-k",
                "5");
        var config = ((RunCommand) options.getSubcommands().get("run").getCommand()).config();
        String recorded = dev.llmload.report.ReportFiles.JSON.writeValueAsString(config);
        assertThat(recorded).doesNotContain(BEARER).contains("[redacted]");
        var again = dev.llmload.report.ReportFiles.JSON.readValue(recorded, dev.llmload.config.RunConfig.class);
        assertThat(again.target().extras().headers()).containsExactly(Map.entry("x-route", "pool-a"));
        assertThat(again.target().extras().extraBody())
                .isEqualTo(config.target().extras().extraBody());
        assertThat(again.target().extras().topK()).isEqualTo(5);
    }

    @Test
    void badExtrasAreUsageErrorsInOneLine() {
        for (String[] args : List.of(
                new String[] {"--header", "no-colon"},
                new String[] {"--header", "Content-Length: 3"},
                new String[] {"--extra-body", "[1,2]"},
                new String[] {"--extra-body", "{oops"},
                new String[] {"--top-p", "1.5"},
                new String[] {"--api", "responses", "--top-k", "3"},
                new String[] {"--api", "embeddings", "--temperature", "0"})) {
            List<String> all = new java.util.ArrayList<>(List.of("run", "--url", "http://127.0.0.1:1"));
            all.addAll(List.of(args));
            CapturedRun outcome = CapturedRun.of(all.toArray(String[]::new));
            assertThat(outcome.exitCode()).as(all.toString()).isEqualTo(Main.EXIT_USAGE);
            assertThat(outcome.err().strip().lines()).as(all.toString()).hasSize(1);
            assertThat(outcome.err()).as(all.toString()).doesNotContain("Exception");
        }
    }
}
