package dev.llmload.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.llmload.client.SchedulingClass;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code --live-metrics}: the run's {@link LiveSnapshot} at {@code /metrics} in Prometheus's text
 * format, on the JDK's HTTP server. Its requests are served one at a time on the thread
 * {@code llmload-live-metrics} (in Linux's batch scheduling class, so a scrape waits for the
 * load's event loops rather than the other way round), which reads the newest published snapshot
 * and formats it; it never touches the load. Any other path answers 404, any other method 405.
 */
public final class MetricsEndpoint implements AutoCloseable {

    /**
     * How long {@link #awaitFinalScrape} keeps the final values up at most: a scraper with an
     * interval this short or shorter records the run's last counts before the process ends.
     */
    public static final Duration FINAL_SCRAPE_WAIT = Duration.ofSeconds(5);

    private final HttpServer server;
    private final ExecutorService thread;
    private final Supplier<LiveSnapshot> snapshots;
    private final Integer segment;
    private final CountDownLatch finalServed = new CountDownLatch(1);

    private MetricsEndpoint(
            HttpServer server, ExecutorService thread, Supplier<LiveSnapshot> snapshots, Integer segment) {
        this.server = server;
        this.thread = thread;
        this.snapshots = snapshots;
        this.segment = segment;
    }

    /**
     * Listens on {@code address} (port 0: any free one) and serves until closed.
     *
     * @param segment the run's segment index for the {@code segment} label, or null
     * @throws IOException when it cannot listen there (the port taken, the address not this host's)
     */
    public static MetricsEndpoint open(InetSocketAddress address, Supplier<LiveSnapshot> snapshots, Integer segment)
            throws IOException {
        HttpServer server = HttpServer.create(address, 16);
        ExecutorService thread = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().daemon().name("llmload-live-metrics").factory());
        thread.execute(SchedulingClass.BATCH::enterCurrentThread);
        MetricsEndpoint endpoint = new MetricsEndpoint(server, thread, snapshots, segment);
        server.createContext("/", endpoint::handle);
        server.setExecutor(thread);
        server.start();
        return endpoint;
    }

    /** The address it listens on, with the port it got. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals("/metrics")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!exchange.getRequestMethod().equals("GET")
                    && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            LiveSnapshot snapshot = snapshots.get();
            byte[] body = PrometheusExposition.render(snapshot, segment).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", PrometheusExposition.CONTENT_TYPE);
            if (exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            if (snapshot.ended()) {
                finalServed.countDown();
            }
        }
    }

    /**
     * Waits until a scrape has fetched the run's last snapshot, at most {@link #FINAL_SCRAPE_WAIT};
     * at once when one already has.
     */
    public void awaitFinalScrape() throws InterruptedException {
        finalServed.await(FINAL_SCRAPE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
