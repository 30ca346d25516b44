package dev.llmload.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Chunked responses over a real loopback connection, written by a raw socket exactly as given: a
 * head and its whole body in one write, a body cut inside its framing over several writes, a
 * second response on the same kept-alive connection (the response decoder back in place), a
 * body that is not chunk framing, and bytes after a whole response, which no request asked for.
 */
@Tag("loopback")
class ChunkedResponseLoopbackTest {

    private static final String HEAD =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";

    @Test
    void chunkedBodiesAreReadWholeAndTheConnectionIsReused() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AtomicInteger accepted = new AtomicInteger();
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try (Socket socket = server.accept()) {
                    accepted.incrementAndGet();
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    readRequest(in);
                    out.write((HEAD + "8;ext=1\r\ndata: a\n\r\n8\r\ndata: b\n\r\n0\r\nx-t: 1\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    readRequest(in);
                    for (String piece : new String[] {
                        HEAD + "8", "\r\ndata:", " c\n\r", "\na", "\r\n0123456789", "\r\n0\r", "\n\r\n"
                    }) {
                        out.write(piece.getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        Thread.sleep(20);
                    }
                    readRequest(in);
                    out.write((HEAD + "3\r\nabcX").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    in.read();
                } catch (Exception e) {
                    // the test's own assertions tell what went wrong
                }
            });
            Endpoint endpoint = new Endpoint(false, "127.0.0.1", server.getLocalPort(), "");
            try (LoadHttpClient client = new LoadHttpClient(endpoint, null, 1, Duration.ofSeconds(5), false)) {
                assertThat(exchange(client).get(10, TimeUnit.SECONDS)).isEqualTo("200 data: a\ndata: b\n complete");
                assertThat(exchange(client).get(10, TimeUnit.SECONDS)).isEqualTo("200 data: c\n0123456789 complete");
                assertThat(exchange(client).get(10, TimeUnit.SECONDS))
                        .startsWith("200 abc failed: malformed HTTP body: expected a line feed");
            }
            serving.join(5_000);
            assertThat(accepted.get()).isEqualTo(1);
        }
    }

    @Test
    void bytesAfterAWholeResponseCloseTheConnectionAndTheNextRequestOpensAnother() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 2, InetAddress.getLoopbackAddress())) {
            AtomicInteger accepted = new AtomicInteger();
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try (Socket first = server.accept()) {
                    accepted.incrementAndGet();
                    readRequest(first.getInputStream());
                    first.getOutputStream()
                            .write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhiHTTP/1.1 200 OK\r\nx: stray\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
                    first.getOutputStream().flush();
                    try (Socket second = server.accept()) {
                        accepted.incrementAndGet();
                        readRequest(second.getInputStream());
                        second.getOutputStream()
                                .write((HEAD + "2\r\nok\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                        second.getOutputStream().flush();
                        second.getInputStream().read();
                    }
                } catch (Exception e) {
                    // the test's own assertions tell what went wrong
                }
            });
            Endpoint endpoint = new Endpoint(false, "127.0.0.1", server.getLocalPort(), "");
            try (LoadHttpClient client = new LoadHttpClient(endpoint, null, 1, Duration.ofSeconds(5), false)) {
                assertThat(exchange(client).get(10, TimeUnit.SECONDS)).isEqualTo("200 hi complete");
                assertThat(exchange(client).get(10, TimeUnit.SECONDS)).isEqualTo("200 ok complete");
            }
            serving.join(5_000);
            assertThat(accepted.get()).isEqualTo(2);
        }
    }

    /** What one exchange heard: the status, the body data, and how it ended. */
    private static CompletableFuture<String> exchange(LoadHttpClient client) {
        CompletableFuture<String> heard = new CompletableFuture<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        StringBuilder status = new StringBuilder();
        client.sendAt(
                new HttpExchangeRequest(
                        "POST", "/v1/chat/completions", Map.of(), "{}".getBytes(StandardCharsets.UTF_8)),
                new ResponseListener() {
                    @Override
                    public void onStart(Exchange exchange) {}

                    @Override
                    public void onResponseHead(int code, HttpHeaders headers, long nanos) {
                        status.append(code);
                    }

                    @Override
                    public void onBodyChunk(ByteBuf chunk, long nanos) {
                        body.writeBytes(ByteBufUtil.getBytes(chunk));
                    }

                    @Override
                    public void onComplete(long nanos) {
                        heard.complete(status + " " + body.toString(StandardCharsets.UTF_8) + " complete");
                    }

                    @Override
                    public void onFailure(ExchangeFailure failure, long nanos) {
                        heard.complete(
                                status + " " + body.toString(StandardCharsets.UTF_8) + " failed: " + failure.message());
                    }
                },
                System.nanoTime());
        return heard;
    }

    /** Reads one request: its head, then the content-length bytes of its body. */
    private static void readRequest(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new java.io.EOFException();
            }
            head.append((char) b);
        }
        String lower = head.toString().toLowerCase(java.util.Locale.ROOT);
        int at = lower.indexOf("content-length: ");
        int length = Integer.parseInt(
                lower.substring(at + 16, lower.indexOf("\r\n", at)).trim());
        in.readNBytes(length);
    }
}
