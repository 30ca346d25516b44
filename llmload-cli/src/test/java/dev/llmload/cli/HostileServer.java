package dev.llmload.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * An independent server for fault tests: {@code hostile-server.py} (a test resource, on Python's
 * standard library only), written into a temporary directory and run with {@code python3}, so what
 * llmload meets is neither its own Netty nor its simulator. A test on a machine without
 * {@code python3} is skipped with that reason.
 */
final class HostileServer implements AutoCloseable {

    private final Process process;
    private final int port;

    private HostileServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** @param mode what it answers to a POST: unicode, gzip, redirect, silent, endless-sse, endless-body, slow */
    static HostileServer start(Path dir, String mode) throws IOException {
        assumeTrue(onPath("python3"), "needs python3 for the independent hostile server");
        Path script = dir.resolve("hostile-server.py");
        if (!Files.exists(script)) {
            try (InputStream in = HostileServer.class.getResourceAsStream("hostile-server.py")) {
                Files.copy(in, script);
            }
        }
        Process process = new ProcessBuilder("python3", script.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null) {
            process.destroyForcibly();
            throw new IOException("hostile-server.py " + mode + " did not start");
        }
        return new HostileServer(process, Integer.parseInt(line.trim()));
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** How many POST requests it has been sent, by its own count. */
    int posts() throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = client.send(
                    HttpRequest.newBuilder(URI.create(url() + "/count")).build(), HttpResponse.BodyHandlers.ofString());
            return Integer.parseInt(answer.body().trim());
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
