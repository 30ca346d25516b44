package dev.llmload.load;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * A loopback HTTP server that answers every POST (on any path) with a scripted stream: each step writes its
 * bytes, flushes, then sleeps. It stands in for servers whose exact wire behaviour a test needs
 * (a role-only first chunk, a late first token) and is independent of llmload's own code.
 */
final class ScriptedSseServer implements AutoCloseable {

    /** Write {@code data} (already SSE-framed), flush, then pause {@code pauseMs}. */
    record Step(String data, long pauseMs) {}

    private final HttpServer server;

    private final String scheme;

    private final AtomicInteger answered = new AtomicInteger();
    /** The path and headers of the last request answered from the script. */
    private volatile String lastPath;

    private volatile com.sun.net.httpserver.Headers lastHeaders;

    ScriptedSseServer(List<Step> steps) throws IOException {
        this(steps, null, "text/event-stream");
    }

    ScriptedSseServer(List<Step> steps, SSLContext tls) throws IOException {
        this(steps, tls, "text/event-stream");
    }

    /**
     * @param tls         serve https with this context; null for plain http
     * @param contentType the media type of the scripted answer, which every POST on any path gets
     */
    ScriptedSseServer(List<Step> steps, SSLContext tls, String contentType) throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(address, 0);
            scheme = "http";
        } else {
            HttpsServer https = HttpsServer.create(address, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
            scheme = "https";
        }
        server.createContext("/v1/models", exchange -> {
            byte[] body = "{\"data\":[{\"id\":\"scripted\",\"owned_by\":\"test\"}]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            lastPath = exchange.getRequestURI().getPath();
            lastHeaders = exchange.getRequestHeaders();
            answered.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (Step step : steps) {
                    out.write(step.data().getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    if (step.pauseMs() > 0) {
                        Thread.sleep(step.pauseMs());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
    }

    /** The path of the last request answered from the script. */
    String lastPath() {
        return lastPath;
    }

    /** A header of the last request answered from the script; null when it had none. */
    String lastHeader(String name) {
        return lastHeaders == null ? null : lastHeaders.getFirst(name);
    }

    /** How many completion requests arrived so far. */
    int requestsReceived() {
        return answered.get();
    }

    String url() {
        return scheme + "://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
