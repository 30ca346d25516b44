package dev.llmload.sim.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
 * warm-up takes about a second of CPU and no time of the real server's clock; it keeps a
 * ground-truth log of its own in a temporary file, deleted after, and the real server's metrics,
 * ground truth and prefix cache never see a warm-up request.
 *
 * <p>Threading: {@link #run} blocks its caller; the clients are platform threads of their own.
 */
final class LoopbackWarmUp {

    private static final int CONNECTIONS = 8;
    private static final int ROUNDS = 3;
    private static final int REQUESTS_PER_CONNECTION = 40;

    /** Lowercase words and spaces alone, as synthetic prompts are; a string reader takes its quickest path. */
    private static final String PLAIN = "art title live words amount order view section look today require organ"
            + " forward country simple assert open work side during body front render query background exception"
            + " present perfect business team software possible network reason board future correct below ";

    private static final String TEXT = "The quick brown fox jumps over the lazy dog; exception handling, background"
            + " rendering and internationalization aren't trivial: it's 2026-12-06, and 42 of 1,000 checks"
            + " (4.2%) failed.\\n\\tSee \\\"docs/performance.md\\\" \\u2014 caf\\u00e9, na\u00efve, Z\u00fcrich,"
            + " \u6771\u4eac, \ud83d\ude42; responsibilities & configuration_management = {x: [1, 2.5e3]}. ";

    /**
     * Prompts, JSON-escaped, of about 100, 1,500 and 6,000 characters: lowercase words alone, and
     * text with short and long words, capitals, digits, punctuation, escaped quotes, newlines and
     * tabs, and text beyond ASCII (raw and as escapes). One sentence of short words, repeated to
     * 1,000 characters, left branches of the tokenizer, of Jackson's string reader and of the
     * engine's block accounting (every prompt found in the prefix cache) untaken, and when a load
     * began the compilers threw that code away and made it again while its first requests waited
     * (docs/performance.md, "The simulator's warm-up and the first second").
     */
    private static final List<String> PROMPTS = List.of(
            prompt(TEXT, 100), prompt(PLAIN, 1_500), prompt(TEXT, 1_500), prompt(PLAIN, 6_000), prompt(TEXT, 6_000));

    /**
     * {@code text} repeated to {@code chars} characters, cut before a space: a prompt that ends in
     * the middle of its last word, as real ones do, takes the tokenizer's end-of-text branch there.
     */
    private static String prompt(String text, int chars) {
        String repeated = text.repeat(chars / text.length() + 1);
        return repeated.substring(0, repeated.lastIndexOf(' ', chars));
    }

    private static final List<String> PATHS =
            List.of("/v1/chat/completions", "/v1/completions", "/generate_stream", "/api/generate", "/v1/completions");

    /** The body of dialect {@code dialect} (an index into {@link #PATHS}): streamed, but the last a plain answer. */
    private static String body(int dialect, String prompt, int maxTokens) {
        return switch (dialect) {
            case 0 ->
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}],\"max_tokens\":"
                        + maxTokens
                        + ",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true}";
            case 1 ->
                "{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + maxTokens
                        + ",\"stream\":true,\"ignore_eos\":true}";
            case 2 -> "{\"inputs\":\"" + prompt + "\",\"parameters\":{\"max_new_tokens\":" + maxTokens + "}}";
            case 3 ->
                "{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"stream\":true,\"options\":{\"num_predict\":"
                        + maxTokens + "}}";
            default ->
                "{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + maxTokens + ",\"ignore_eos\":true}";
        };
    }

    private LoopbackWarmUp() {}

    /** Returns how many requests were answered whole with status 200 (all of them, {@value #ROUNDS} × {@value #CONNECTIONS} × {@value #REQUESTS_PER_CONNECTION}, unless something failed). */
    static int run() {
        AtomicInteger answered = new AtomicInteger();
        // A ground-truth log of its own, so that recording token writes is compiled too; deleted after.
        Path truth;
        try {
            truth = Files.createTempFile("llmload-sim-warm-up", ".jsonl");
        } catch (IOException e) {
            truth = null;
        }
        Map<String, Object> settings = new HashMap<>(Map.of("host", "127.0.0.1", "port", 0, "speedup", 1000));
        if (truth != null) {
            settings.put("groundTruth", truth.toString());
        }
        try (SimServer server = SimServer.start(SimConfig.load(null, settings))) {
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
        } finally {
            if (truth != null) {
                try {
                    Files.deleteIfExists(truth);
                } catch (IOException e) {
                    // A leftover file in the temporary directory is all it costs.
                }
            }
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
                // Every dialect with every prompt length, and answers of 8 and of 64 tokens.
                int dialect = (first + i) % PATHS.size();
                // Each prompt starts with its own number: as in a load of distinct prompts, the engine
                // computes its blocks rather than finding them in its prefix cache.
                String prompt =
                        "Request " + first + "." + i + ": " + PROMPTS.get((first + i / PATHS.size()) % PROMPTS.size());
                byte[] body = body(dialect, prompt, i % 2 == 0 ? 8 : 64).getBytes(StandardCharsets.UTF_8);
                out.write(("POST " + PATHS.get(dialect) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                if (readResponse(in) == 200) {
                    answered.incrementAndGet();
                }
            }
        } catch (IOException | RuntimeException e) {
            // The warm-up only makes the first requests faster: one that fails leaves that much of
            // the code colder, and the real server starts all the same.
        }
    }

    /** Reads one response, its head, then a chunked body to its last chunk or a sized one; returns its status. */
    private static int readResponse(InputStream in) throws IOException {
        String statusLine = readLine(in);
        String[] parts = statusLine.split(" ");
        if (parts.length < 2) {
            throw new IOException("the throwaway simulator answered " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
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
            return status;
        }
        for (long size = Long.parseLong(readLine(in).split(";")[0].trim(), 16);
                size > 0;
                size = Long.parseLong(readLine(in).split(";")[0].trim(), 16)) {
            in.skipNBytes(size);
            readLine(in);
        }
        readLine(in); // the blank line after the last chunk
        return status;
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
