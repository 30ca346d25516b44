package dev.llmload.sim.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves requests of every streaming dialect to a throwaway simulator over loopback until the
 * server's whole request path (accept, channel set-up, HTTP codec, arrival stamp, parsing,
 * tokenizing, engine hand-over, the loop inbox, every chunk format) is compiled, before the real
 * server starts.
 *
 * <p>Why: {@link SimHttpHandler#warmUp} compiles the parsing and one format in-process, but not
 * Netty's side of a request nor the other dialects. A fresh {@code llmload sim} took 3–12 ms to
 * serve each of the first requests of a 64-stream burst in the interpreter, and the requests
 * behind them were read 35–70 ms after their packets came (docs/performance.md, the wire's
 * truth). The throwaway server runs the batching engine at a thousand times its speed, so the
 * warm-up takes about a second of CPU and no time of the real server's clock; the real server's
 * metrics, ground truth and prefix cache never see a warm-up request.
 *
 * <p>Threading: {@link #run} blocks its caller; the clients are platform threads of their own.
 */
final class LoopbackWarmUp {

    private static final int CONNECTIONS = 8;
    private static final int ROUNDS = 3;
    private static final int REQUESTS_PER_CONNECTION = 40;

    private static final String PROMPT = "the quick brown fox jumps over the lazy dog ".repeat(24);

    /** Path and body of one request of each streaming dialect, and one plain answer. */
    private static final List<Map.Entry<String, String>> REQUESTS = List.of(
            Map.entry(
                    "/v1/chat/completions",
                    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + PROMPT
                            + "\"}],\"max_tokens\":8,\"stream\":true,"
                            + "\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true}"),
            Map.entry(
                    "/v1/completions",
                    "{\"model\":\"m\",\"prompt\":\"" + PROMPT
                            + "\",\"max_tokens\":8,\"stream\":true,\"ignore_eos\":true}"),
            Map.entry("/generate_stream", "{\"inputs\":\"" + PROMPT + "\",\"parameters\":{\"max_new_tokens\":8}}"),
            Map.entry(
                    "/api/generate",
                    "{\"model\":\"m\",\"prompt\":\"" + PROMPT + "\",\"stream\":true,\"options\":{\"num_predict\":8}}"),
            Map.entry(
                    "/v1/completions",
                    "{\"model\":\"m\",\"prompt\":\"" + PROMPT + "\",\"max_tokens\":8,\"ignore_eos\":true}"));

    private LoopbackWarmUp() {}

    /** Returns how many responses came whole (all of them, {@value #ROUNDS} × {@value #CONNECTIONS} × {@value #REQUESTS_PER_CONNECTION}, unless something failed). */
    static int run() {
        AtomicInteger answered = new AtomicInteger();
        SimConfig config = SimConfig.load(null, Map.of("host", "127.0.0.1", "port", 0, "speedup", 1000));
        try (SimServer server = SimServer.start(config)) {
            for (int round = 0; round < ROUNDS; round++) {
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    int first = c;
                    clients.add(Thread.ofPlatform()
                            .name("sim-warm-up-" + c)
                            .daemon()
                            .start(() -> exchange(server.port(), first, answered)));
                }
                for (Thread client : clients) {
                    client.join();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return answered.get();
    }

    /** {@value #REQUESTS_PER_CONNECTION} requests on one keep-alive connection, each answered whole. */
    private static void exchange(int port, int first, AtomicInteger answered) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i < REQUESTS_PER_CONNECTION; i++) {
                Map.Entry<String, String> request = REQUESTS.get((first + i) % REQUESTS.size());
                byte[] body = request.getValue().getBytes(StandardCharsets.UTF_8);
                out.write(("POST " + request.getKey() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                readResponse(in);
                answered.incrementAndGet();
            }
        } catch (IOException | RuntimeException e) {
            // The warm-up only makes the first requests faster: one that fails leaves that much of
            // the code colder, and the real server starts all the same.
        }
    }

    /** Reads one response: its head, then a chunked body to its last chunk or a sized one. */
    private static void readResponse(InputStream in) throws IOException {
        long length = -1;
        boolean chunked = false;
        for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        if (!chunked) {
            in.skipNBytes(Math.max(0, length));
            return;
        }
        for (long size = Long.parseLong(readLine(in).split(";")[0].trim(), 16);
                size > 0;
                size = Long.parseLong(readLine(in).split(";")[0].trim(), 16)) {
            in.skipNBytes(size);
            readLine(in);
        }
        readLine(in); // the blank line after the last chunk
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the throwaway simulator closed the connection");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
