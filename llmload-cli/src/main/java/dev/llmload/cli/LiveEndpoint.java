package dev.llmload.cli;

import dev.llmload.live.LiveSnapshot;
import dev.llmload.live.MetricsEndpoint;
import dev.llmload.run.RunException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/** {@code --live-metrics HOST:PORT} for {@code run} and {@code sweep}: the address read, the endpoint opened and named. */
final class LiveEndpoint {

    private LiveEndpoint() {}

    /**
     * {@code HOST:PORT}, {@code [V6]:PORT} or a bare {@code PORT} (on 127.0.0.1); null for null.
     *
     * @throws UsageException for anything else, in one line
     */
    static InetSocketAddress address(String text) {
        if (text == null) {
            return null;
        }
        String host = "127.0.0.1";
        String port = text.trim();
        int colon = port.lastIndexOf(':');
        if (colon >= 0) {
            host = port.substring(0, colon);
            port = port.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            number = -1;
        }
        if (number < 0 || number > 65535 || host.isEmpty()) {
            throw new UsageException("--live-metrics: give HOST:PORT or PORT (0 to 65535), got '" + text + "'");
        }
        InetSocketAddress address = new InetSocketAddress(host, number);
        if (address.isUnresolved()) {
            throw new UsageException("--live-metrics: unknown host " + host);
        }
        return address;
    }

    /**
     * Opens the endpoint and says where on {@code err} ({@code Live metrics: http://...}).
     *
     * @param segment the run's segment index for the {@code segment} label, or null
     * @throws RunException when it cannot listen there, before any load
     */
    static MetricsEndpoint open(
            InetSocketAddress address, Supplier<LiveSnapshot> snapshots, Integer segment, PrintWriter err)
            throws RunException {
        try {
            MetricsEndpoint endpoint = MetricsEndpoint.open(address, snapshots, segment);
            InetSocketAddress bound = endpoint.address();
            String host = bound.getAddress().getHostAddress();
            err.println("Live metrics: http://" + (bound.getAddress() instanceof Inet6Address ? "[" + host + "]" : host)
                    + ":" + bound.getPort() + "/metrics");
            err.flush();
            return endpoint;
        } catch (IOException e) {
            throw new RunException("--live-metrics: cannot listen on " + address.getHostString() + ":"
                    + address.getPort() + ": " + e.getMessage());
        }
    }
}
