package dev.llmload.sim.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A plain JDK HTTP client (and a raw socket for streams) for the tests, talking to one {@link SimServer} over loopback. */
final class SimClient implements AutoCloseable {

    /**
     * One SSE {@code data:} payload (with or without the space after the colon) or one NDJSON line,
     * when the client read it, and the name of its SSE event ({@code event:}), or null.
     */
    record Event(long nanos, String data, String name) {
        Event(long nanos, String data) {
            this(nanos, data, null);
        }
    }

    /**
     * A streamed response as a raw socket saw it.
     *
     * @param headers  lower-cased names
     * @param complete the chunked body ended with its terminating chunk (not a cut connection)
     */
    record Streamed(int status, Map<String, String> headers, long sentNanos, List<Event> events, boolean complete) {
        String header(String name) {
            return headers.get(name);
        }
    }

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String base;
    private final int port;

    SimClient(SimServer server) {
        this.base = server.url();
        this.port = server.port();
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json, String... headers) throws IOException, InterruptedException {
        return http.send(request(path, json, headers), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Posts over a fresh raw socket and reads the SSE stream to its end, stamping each {@code data:}
     * line when its last byte is read: no client library threads between the socket and the clock.
     */
    Streamed stream(String path, String json, String... headers) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(20_000);
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: " + body.length + "\r\n");
            for (int i = 0; i < headers.length; i += 2) {
                head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            out.write(body);
            long sent = System.nanoTime();
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String statusLine = readLine(in);
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            Map<String, String> responseHeaders = new HashMap<>();
            for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
                int colon = line.indexOf(':');
                responseHeaders.put(
                        line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        line.substring(colon + 1).strip());
            }
            List<Event> events = new ArrayList<>();
            boolean complete = false;
            String name = null;
            try {
                for (String line = readLine(in); line != null; line = readLine(in)) {
                    if (line.startsWith("data:")) {
                        events.add(
                                new Event(System.nanoTime(), line.substring(line.startsWith("data: ") ? 6 : 5), name));
                        name = null;
                    } else if (line.startsWith("event: ")) {
                        name = line.substring(7);
                    } else if (line.startsWith("{")) {
                        events.add(new Event(System.nanoTime(), line, null));
                    } else if (line.equals("0")) {
                        complete = true;
                    }
                }
            } catch (SocketException e) {
                // a connection the server reset: keep what arrived
            }
            return new Streamed(status, responseHeaders, sent, events, complete);
        }
    }

    /** A line without its CR LF or LF; null at the end of the stream. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            line.write(b);
        }
        if (b == -1 && line.size() == 0) {
            return null;
        }
        String s = line.toString(StandardCharsets.UTF_8);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
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
