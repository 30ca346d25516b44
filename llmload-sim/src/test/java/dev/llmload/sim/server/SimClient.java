package dev.llmload.sim.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A plain JDK HTTP client for the tests, talking to one {@link SimServer} over loopback. */
final class SimClient implements AutoCloseable {

    /** One SSE {@code data:} payload and when the client read it. */
    record Event(long nanos, String data) {}

    record Streamed(int status, HttpResponse<?> response, long sentNanos, List<Event> events) {}

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String base;

    SimClient(SimServer server) {
        this.base = server.url();
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json, String... headers) throws IOException, InterruptedException {
        return http.send(request(path, json, headers), HttpResponse.BodyHandlers.ofString());
    }

    /** Posts and reads the SSE stream to its end, stamping each {@code data:} line as it arrives. */
    Streamed stream(String path, String json, String... headers) throws IOException, InterruptedException {
        HttpRequest request = request(path, json, headers);
        long sent = System.nanoTime();
        HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
        List<Event> events = new ArrayList<>();
        try (Stream<String> lines = response.body()) {
            lines.forEach(line -> {
                if (line.startsWith("data: ")) {
                    events.add(new Event(System.nanoTime(), line.substring(6)));
                }
            });
        } catch (java.io.UncheckedIOException e) {
            // a connection the server cut: keep what arrived
        }
        return new Streamed(response.statusCode(), response, sent, events);
    }

    private HttpRequest request(String path, String json, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b.build();
    }

    static String chat(String content, int maxTokens, boolean stream, boolean usage) {
        return "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}],"
                + "\"max_tokens\":" + maxTokens + ",\"ignore_eos\":true,\"stream\":" + stream
                + (usage ? ",\"stream_options\":{\"include_usage\":true}" : "") + "}";
    }

    static String completion(String prompt, int maxTokens, boolean stream, boolean usage) {
        return "{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + maxTokens
                + ",\"ignore_eos\":true,\"stream\":" + stream
                + (usage ? ",\"stream_options\":{\"include_usage\":true}" : "") + "}";
    }

    @Override
    public void close() {
        http.close();
    }
}
