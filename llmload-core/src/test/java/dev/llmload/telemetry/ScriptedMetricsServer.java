package dev.llmload.telemetry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal HTTP/1.1 server on 127.0.0.1 for telemetry tests: answers GETs from a table of paths
 * (or endlessly, for some), or, once told to hang, accepts and reads requests but never answers; {@link #close()} kills it
 * (the listening socket and every open connection). Each connection is served by its own daemon
 * thread; all of them end with {@link #close()}.
 */
final class ScriptedMetricsServer implements AutoCloseable {

    record Answer(int status, String contentType, String body) {}

    private final ServerSocket socket;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Set<String> endless = ConcurrentHashMap.newKeySet();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile boolean hanging;

    ScriptedMetricsServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("scripted-metrics-accept").start(this::accept);
    }

    ScriptedMetricsServer answer(String path, int status, String contentType, String body) {
        answers.put(path, new Answer(status, contentType, body));
        return this;
    }

    ScriptedMetricsServer prometheus(String path, String body) {
        return answer(path, 200, "text/plain; version=0.0.4; charset=utf-8", body);
    }

    /** Answers {@code path} with Prometheus comment lines, without a length, until the client hangs up. */
    ScriptedMetricsServer endless(String path) {
        endless.add(path);
        return this;
    }

    void hang() {
        hanging = true;
    }

    int requests() {
        return requests.get();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connections.add(connection);
                Thread.ofPlatform().daemon().name("scripted-metrics-conn").start(() -> serve(connection));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream out = connection.getOutputStream();
            String requestLine;
            while ((requestLine = in.readLine()) != null) {
                String header;
                while ((header = in.readLine()) != null && !header.isEmpty()) {
                    // headers are not needed
                }
                requests.incrementAndGet();
                if (hanging) {
                    // hold the connection open without a byte of answer until the test kills us
                    while (in.read() >= 0) {
                        // discard
                    }
                    return;
                }
                String path = requestLine.split(" ")[1];
                if (endless.contains(path)) {
                    out.write(("HTTP/1.1 200 X\r\nContent-Type: text/plain; version=0.0.4\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    byte[] lines = "# more\n".repeat(8192).getBytes(StandardCharsets.ISO_8859_1);
                    while (true) {
                        out.write(lines);
                    }
                }
                Answer answer = answers.getOrDefault(path, new Answer(404, "text/plain", "404 page not found\n"));
                byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 " + answer.status() + " X\r\nContent-Type: " + answer.contentType()
                                + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
            }
        } catch (IOException gone) {
            // the client hung up or the server was killed
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket connection : connections) {
            connection.close();
        }
    }
}
