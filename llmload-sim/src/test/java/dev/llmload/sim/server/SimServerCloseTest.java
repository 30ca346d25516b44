package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Closing the simulator ends every connection it holds: a client in the middle of a stream, or
 * waiting on an idle keep-alive connection, sees the server go away (end of stream or a reset)
 * instead of waiting on it forever. Tests that stop a server under load, and users who embed the
 * simulator, rely on it.
 */
@Tag("loopback")
class SimServerCloseTest {

    @Test
    void closeEndsStreamsInFlightAndIdleConnections() throws Exception {
        // A token every 200 ms: streams are still running when the server closes.
        SimServer server = SimServer.start(SimTestConfigs.with(Map.of("itlMs", 200)));
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout(10_000);
                sockets.add(socket);
                if (i < 3) {
                    send(socket, SimClient.completion("one two three", 1000, true, false));
                    assertThat(readSome(socket.getInputStream()))
                            .as("stream %d began", i)
                            .startsWith("HTTP/1.1 200");
                }
            }
            // The fourth is connected and idle: wait until the server has accepted it.
            send(sockets.get(3), SimClient.completion("one", 1, false, false));
            assertThat(readSome(sockets.get(3).getInputStream())).startsWith("HTTP/1.1 200");
        } finally {
            server.close();
        }
        for (Socket socket : sockets) {
            try (socket) {
                assertThat(drainToEnd(socket.getInputStream()))
                        .as("the server ended the connection")
                        .isTrue();
            }
        }
    }

    private static void send(Socket socket, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        socket.getOutputStream()
                .write(("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    private static String readSome(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        int n = in.read(buffer);
        return n < 0 ? "" : new String(buffer, 0, n, StandardCharsets.US_ASCII);
    }

    /** True when the connection ended (end of stream or reset) within the socket's timeout. */
    private static boolean drainToEnd(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            while (in.read(buffer) >= 0) {
                // what the server wrote before it closed
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }
}
