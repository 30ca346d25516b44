package dev.llmload.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A request written by {@link RequestBytes} is byte for byte what Netty's own request encoder
 * writes for the same request, built as a header map with the client's headers set first and the
 * request's after them.
 */
class RequestBytesTest {

    @Test
    void aPlainPostIsWhatNettysEncoderWrites() {
        assertSameBytes(
                Endpoint.parse("http://127.0.0.1:18501/v1"),
                null,
                null,
                new HttpExchangeRequest(
                        "POST",
                        "/chat/completions",
                        Map.of("x-request-id", "run-17"),
                        "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theKeyHeaderAnEmptyBodyAndTheDefaultPortAreWhatNettysEncoderWrites() {
        assertSameBytes(
                Endpoint.parse("http://example.test"),
                "authorization",
                "Bearer sk-secret",
                new HttpExchangeRequest("GET", "/models", Map.of(), new byte[0]));
        assertSameBytes(
                Endpoint.parse("https://[::1]:8443/openai/v1"),
                "x-api-key",
                "k",
                new HttpExchangeRequest(
                        "POST",
                        "/messages",
                        Map.of("anthropic-version", "2023-06-01"),
                        "{}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void headersOfTheRequestReplaceTheClientsOfTheSameNameInAnyCase() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "application/x-ndjson");
        headers.put("HOST", "gateway.internal");
        headers.put("Content-Type", "application/json; charset=utf-8");
        headers.put("Authorization", "Bearer other");
        headers.put("x-route", "pool-a");
        headers.put("X-Route", "pool-b");
        headers.put("x-note", "caf\u00e9 \u2603");
        assertSameBytes(
                Endpoint.parse("http://127.0.0.1:8000"),
                "authorization",
                "Bearer sk-secret",
                new HttpExchangeRequest(
                        "POST", "/v1/completions", headers, "{\"prompt\":\"x\"}".getBytes(StandardCharsets.UTF_8)));
    }

    private static void assertSameBytes(
            Endpoint endpoint, String keyName, String keyValue, HttpExchangeRequest request) {
        ByteBuf ours = new RequestBytes(endpoint, keyName, keyValue).encode(ByteBufAllocator.DEFAULT, request);
        try {
            assertThat(ByteBufUtil.getBytes(ours))
                    .asString(StandardCharsets.ISO_8859_1)
                    .isEqualTo(new String(nettys(endpoint, keyName, keyValue, request), StandardCharsets.ISO_8859_1));
        } finally {
            ours.release();
        }
    }

    /** The request as a Netty message, through Netty's encoder. */
    private static byte[] nettys(Endpoint endpoint, String keyName, String keyValue, HttpExchangeRequest request) {
        FullHttpRequest http = new DefaultFullHttpRequest(
                HttpVersion.HTTP_1_1,
                HttpMethod.valueOf(request.method()),
                endpoint.basePath() + request.path(),
                Unpooled.wrappedBuffer(request.body()));
        http.headers().set(HttpHeaderNames.HOST, endpoint.hostHeader());
        http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        http.headers().set(HttpHeaderNames.CONTENT_LENGTH, request.body().length);
        if (request.body().length > 0) {
            http.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        }
        http.headers().set(HttpHeaderNames.ACCEPT, "text/event-stream, application/json");
        if (keyName != null) {
            http.headers().set(keyName, keyValue);
        }
        request.headers().forEach(http.headers()::set);
        EmbeddedChannel channel = new EmbeddedChannel(new HttpRequestEncoder());
        channel.writeOutbound(http);
        ByteBuf all = Unpooled.buffer();
        ByteBuf part;
        while ((part = channel.readOutbound()) != null) {
            all.writeBytes(part);
            part.release();
        }
        channel.finishAndReleaseAll();
        return ByteBufUtil.getBytes(all);
    }
}
