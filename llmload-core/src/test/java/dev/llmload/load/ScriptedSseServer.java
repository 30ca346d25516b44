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
 * A loopback HTTP server that answers every POST with a scripted SSE stream: each step writes its
 * bytes, flushes, then sleeps. It stands in for servers whose exact wire behaviour a test needs
 * (a role-only first chunk, a late first token) and is independent of llmload's own code.
 */
final class ScriptedSseServer implements AutoCloseable {

    /** Write {@code data} (already SSE-framed), flush, then pause {@code pauseMs}. */
    record Step(String data, long pauseMs) {}

    private final HttpServer server;

    private final String scheme;

    private final AtomicInteger answered = new AtomicInteger();

    ScriptedSseServer(List<Step> steps) throws IOException {
        this(steps, null);
    }

    /** @param tls serve https with this context; null for plain http */
    ScriptedSseServer(List<Step> steps, SSLContext tls) throws IOException {
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
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            answered.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
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
