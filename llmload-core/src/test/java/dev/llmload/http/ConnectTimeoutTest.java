package dev.llmload.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A connection the server never completes fails as a connect timeout, from the client's own
 * timer: a loopback server socket whose accept queue is full and that never accepts, so the
 * kernel drops further connection attempts and they hang.
 */
@Tag("loopback")
class ConnectTimeoutTest {

    @Test
    void aConnectionThatNeverCompletesTimesOut() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
            List<Socket> queued = new ArrayList<>();
            try {
                assumeTrue(
                        fillAcceptQueue(address, queued),
                        "the kernel completed every connection: no queue limit to fill here");
                LoadHttpClient client = new LoadHttpClient(
                        Endpoint.parse("http://127.0.0.1:" + server.getLocalPort()),
                        null,
                        1,
                        Duration.ofMillis(300),
                        false);
                try {
                    CompletableFuture<ExchangeFailure> failed = new CompletableFuture<>();
                    client.sendAt(
                            new HttpExchangeRequest("POST", "/v1/completions", Map.of(), new byte[0]),
                            failureInto(failed),
                            System.nanoTime());
                    ExchangeFailure failure = failed.get(20, TimeUnit.SECONDS);
                    assertThat(failure).isInstanceOf(ExchangeFailure.ConnectTimedOut.class);
                    assertThat(((ExchangeFailure.ConnectTimedOut) failure).message())
                            .contains("300 ms");
                } finally {
                    client.close();
                }
            } finally {
                for (Socket socket : queued) {
                    socket.close();
                }
            }
        }
    }

    /** Opens connections that nobody accepts until one hangs; true once one did. */
    private static boolean fillAcceptQueue(InetSocketAddress address, List<Socket> queued) throws Exception {
        for (int i = 0; i < 16; i++) {
            Socket socket = new Socket();
            queued.add(socket);
            try {
                socket.connect(address, 500);
            } catch (SocketTimeoutException hung) {
                return true;
            }
        }
        return false;
    }

    private static ResponseListener failureInto(CompletableFuture<ExchangeFailure> failed) {
        return new ResponseListener() {
            @Override
            public void onStart(Exchange exchange) {}

            @Override
            public void onResponseHead(int status, HttpHeaders headers, long nanos) {
                failed.completeExceptionally(new AssertionError("a response from a server that never accepted"));
            }

            @Override
            public void onBodyChunk(ByteBuf chunk, long nanos) {}

            @Override
            public void onComplete(long nanos) {}

            @Override
            public void onFailure(ExchangeFailure failure, long nanos) {
                failed.complete(failure);
            }
        };
    }
}
