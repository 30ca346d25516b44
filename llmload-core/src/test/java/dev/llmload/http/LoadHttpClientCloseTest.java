package dev.llmload.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Closing the client ends every connection it opened: a plain server socket, independent of
 * llmload's Netty code, sees each pooled keep-alive connection end.
 */
@Tag("loopback")
class LoadHttpClientCloseTest {

    @Test
    void closeEndsEveryPooledConnectionAtTheServer() throws Exception {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        accepted.add(server.accept());
                    }
                } catch (IOException closed) {
                    // the server socket closed: the test is over
                }
            });
            LoadHttpClient client = new LoadHttpClient(
                    Endpoint.parse("http://127.0.0.1:" + server.getLocalPort()), null, 2, Duration.ofSeconds(5), false);
            int opened;
            try {
                opened = client.preconnect(3, Duration.ofSeconds(10));
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (accepted.size() < opened && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            } finally {
                client.close();
            }
            assertThat(opened).isEqualTo(3);
            assertThat(accepted).hasSize(3);
            List<Boolean> ended = new ArrayList<>();
            for (Socket socket : accepted) {
                try (socket) {
                    socket.setSoTimeout(5_000);
                    ended.add(endsWithoutData(socket));
                }
            }
            assertThat(ended).as("each connection ended at the server").containsOnly(true);
            server.close();
            acceptor.join(5_000);
        }
    }

    private static boolean endsWithoutData(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }
}
