package dev.llmload.run;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** Test helpers for servers scripted with the JDK's HttpServer on loopback: answers whole, and a model list. */
final class ScriptedHttp {

    private ScriptedHttp() {}

    /** A server on a free loopback port (not started) that lists one model, {@code modelId}, at /v1/models. */
    static HttpServer withModel(String modelId) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(
                "/v1/models",
                exchange -> send(
                        exchange,
                        200,
                        "application/json",
                        "{\"data\":[{\"id\":\"" + modelId + "\",\"owned_by\":\"test\"}]}"));
        return server;
    }

    /** Answers {@code exchange} with {@code body} whole and closes it. */
    static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
