package dev.llmload.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The non-blocking HTTP/1.1 client that carries the load. Each exchange is pinned to one event
 * loop, which owns its connection and every callback; keep-alive connections are pooled per event
 * loop, so a pool is only ever touched by its own thread and needs no lock. The pools grow to the
 * number of exchanges in flight on their loop, which the dispatcher bounds by the run's
 * concurrency. TLS (for https URLs) verifies certificates unless {@code insecure} is set.
 */
public final class LoadHttpClient implements AutoCloseable {

    private final Endpoint endpoint;
    private final RequestBytes requestBytes;
    private final MultiThreadIoEventLoopGroup group;
    private final Bootstrap bootstrap;
    private final Duration connectTimeout;
    private final Map<EventLoop, ArrayDeque<Channel>> idleByLoop = new IdentityHashMap<>();
    /** Every open connection, pooled or busy; the group drops each one as it closes. */
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

    /**
     * @param apiKey  sent as a bearer token when not null; never logged
     * @param threads event loop threads; streams are spread over them round-robin
     */
    public LoadHttpClient(Endpoint endpoint, String apiKey, int threads, Duration connectTimeout, boolean insecure) {
        this(endpoint, apiKey, KeyHeader.BEARER, threads, connectTimeout, insecure);
    }

    /** @param keyHeader the header that carries {@code apiKey} (never logged) */
    public LoadHttpClient(
            Endpoint endpoint,
            String apiKey,
            KeyHeader keyHeader,
            int threads,
            Duration connectTimeout,
            boolean insecure) {
        this(endpoint, apiKey, keyHeader, threads, "llmload-io", connectTimeout, insecure);
    }

    /**
     * A client for the requests beside the load (the server probe, the telemetry's scrapes; see
     * {@link PageFetch}): one event loop of its own named {@code threadPrefix}-1, no key of its own
     * (a request carries its headers). It runs the load's code: no second HTTP stack to load at
     * start-up, and once a run is under way a scrape costs compiled code, not an interpreter's.
     *
     * @param insecure accept any TLS certificate
     */
    public static LoadHttpClient beside(
            Endpoint endpoint, String threadPrefix, Duration connectTimeout, boolean insecure) {
        return new LoadHttpClient(endpoint, null, KeyHeader.BEARER, 1, threadPrefix, connectTimeout, insecure);
    }

    private LoadHttpClient(
            Endpoint endpoint,
            String apiKey,
            KeyHeader keyHeader,
            int threads,
            String threadPrefix,
            Duration connectTimeout,
            boolean insecure) {
        this.endpoint = endpoint;
        this.connectTimeout = connectTimeout;
        boolean keyed = apiKey != null && !apiKey.isEmpty();
        this.requestBytes = new RequestBytes(
                endpoint, keyed ? keyHeader.headerName() : null, keyed ? keyHeader.value(apiKey) : null);
        Transport transport = Transport.best();
        this.group = transport.newGroup(threads, threadPrefix);
        group.forEach(executor -> idleByLoop.put((EventLoop) executor, new ArrayDeque<>()));
        SslContext ssl = endpoint.tls() ? sslContext(insecure) : null;
        this.bootstrap = new Bootstrap()
                .channel(transport.socketChannelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                // The connect timeout is connect()'s own timer, not Netty's (see there).
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        connections.add(channel);
                        if (ssl != null) {
                            channel.pipeline()
                                    .addLast(ssl.newHandler(channel.alloc(), endpoint.host(), endpoint.port()));
                        }
                        // Responses only: requests go out as bytes already (RequestBytes), and POST
                        // and GET are all it sends, so nothing needs the request's method to read a response.
                        channel.pipeline().addLast(RESPONSE_DECODER, responseDecoder());
                        channel.pipeline().addLast(new ExchangeHandler());
                    }
                });
    }

    /** The response decoder's name in a connection's pipeline. */
    static final String RESPONSE_DECODER = "http";

    /** Reads response heads and bodies other than chunked ones ({@link ExchangeHandler}). */
    static HttpResponseDecoder responseDecoder() {
        return new HttpResponseDecoder(new HttpDecoderConfig()
                .setMaxInitialLineLength(4096)
                .setMaxHeaderSize(64 * 1024)
                .setMaxChunkSize(64 * 1024));
    }

    private static SslContext sslContext(boolean insecure) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (insecure) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            }
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    /** The event loops that carry the exchanges, for probes that run on them. */
    public List<EventLoop> eventLoops() {
        return List.copyOf(idleByLoop.keySet());
    }

    /**
     * Starts an exchange on an event loop at {@code startNanos} ({@link System#nanoTime()}): the
     * loop's own timer wakes it then, so a send planned ahead costs one wake-up at its time instead
     * of a dispatcher's wake-up followed by a hand-over to the loop; a time already past starts it
     * at once. Returns at once; the listener hears the rest on that loop. The returned handle
     * aborts the exchange from any thread.
     */
    public Exchange sendAt(HttpExchangeRequest request, ResponseListener listener, long startNanos) {
        long delay = startNanos - System.nanoTime();
        // Sent from one of this client's loops (a closed loop's next request, sent as the last one
        // finished): stay on it, with no hand-over, and reuse the connection that just came free.
        EventLoop current = delay > 0 ? null : currentLoop();
        EventLoop loop = current != null ? current : group.next();
        Exchange exchange = new Exchange(loop, request, listener);
        if (delay > 0) {
            loop.schedule(() -> start(exchange), delay, TimeUnit.NANOSECONDS);
        } else {
            loop.execute(() -> start(exchange));
        }
        return exchange;
    }

    /**
     * Opens up to {@code connections} keep-alive connections, spread over the event loops, and
     * parks them in the pools, so the measured requests do not pay for TCP and TLS set-up that a
     * long-running client would long have done. Waits at most {@code timeout}; a connection that
     * fails is simply not pooled (the run's own requests will report the failure).
     *
     * @return how many connections were opened
     */
    public int preconnect(int connections, Duration timeout) throws InterruptedException {
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(connections);
        java.util.concurrent.atomic.AtomicInteger opened = new java.util.concurrent.atomic.AtomicInteger();
        for (int i = 0; i < connections; i++) {
            EventLoop loop = group.next();
            loop.execute(() -> connect(loop).addListener((ChannelFuture connected) -> {
                if (!connected.isSuccess()) {
                    done.countDown();
                    return;
                }
                Channel channel = connected.channel();
                io.netty.handler.ssl.SslHandler ssl = channel.pipeline().get(io.netty.handler.ssl.SslHandler.class);
                // Over TLS a pooled connection must also have finished its handshake.
                Future<?> ready = ssl == null ? connected : ssl.handshakeFuture();
                ready.addListener(handshake -> {
                    if (handshake.isSuccess()) {
                        opened.incrementAndGet();
                        release(channel);
                    } else {
                        channel.close();
                    }
                    done.countDown();
                });
            }));
        }
        done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return opened.get();
    }

    /** The loop the calling thread runs, or null when it is not one of this client's. */
    private EventLoop currentLoop() {
        for (EventLoop loop : idleByLoop.keySet()) {
            if (loop.inEventLoop()) {
                return loop;
            }
        }
        return null;
    }

    private void start(Exchange exchange) {
        if (exchange.isDone()) {
            return;
        }
        exchange.listener().onStart(exchange);
        if (exchange.isDone()) {
            return;
        }
        ArrayDeque<Channel> idle = idleByLoop.get(exchange.loop());
        Channel channel;
        while ((channel = idle.pollLast()) != null) {
            if (channel.isActive()) {
                write(channel, exchange);
                return;
            }
        }
        ChannelFuture connect = connect(exchange.loop());
        exchange.connecting(connect.channel());
        connect.addListener((ChannelFuture future) -> {
            if (future.isSuccess()) {
                write(future.channel(), exchange);
            } else {
                Throwable cause = future.cause();
                String reason = endpoint.hostHeader() + ": " + describe(cause);
                exchange.fail(
                        cause instanceof ConnectTimeoutException
                                ? new ExchangeFailure.ConnectTimedOut(reason)
                                : new ExchangeFailure.ConnectFailed(reason));
            }
        });
    }

    /**
     * Opens a connection on {@code loop}, which calls this, failing it with a
     * {@link ConnectTimeoutException} once the connect timeout has passed. The timer is this
     * method's rather than Netty's ({@link ChannelOption#CONNECT_TIMEOUT_MILLIS}): an epoll
     * channel keeps Netty's cancelled timer for as long as it stays open, 80 bytes of every
     * connection, so of every stream in flight.
     */
    private ChannelFuture connect(EventLoop loop) {
        ChannelFuture connect = bootstrap.clone(loop).connect(endpoint.host(), endpoint.port());
        if (!connect.isDone() && connect instanceof ChannelPromise promise) {
            Future<?> timeout = loop.schedule(
                    () -> {
                        if (promise.tryFailure(new ConnectTimeoutException("connection timed out after "
                                + connectTimeout.toMillis() + " ms: " + endpoint.hostHeader()))) {
                            promise.channel().close();
                        }
                    },
                    connectTimeout.toNanos(),
                    TimeUnit.NANOSECONDS);
            connect.addListener(done -> timeout.cancel(false));
        }
        return connect;
    }

    private void write(Channel channel, Exchange exchange) {
        if (exchange.isDone()) {
            release(channel);
            return;
        }
        ByteBuf message = requestBytes.encode(channel.alloc(), exchange.takeRequest());
        channel.pipeline().get(ExchangeHandler.class).begin(exchange, this);
        channel.writeAndFlush(message).addListener(written -> {
            if (written.isSuccess()) {
                exchange.sent(channel);
            } else {
                exchange.fail(broken("write failed: ", written.cause()));
                channel.close();
            }
        });
    }

    /** Returns a connection whose response ended cleanly to its loop's pool. Runs on that loop. */
    void release(Channel channel) {
        if (channel.isActive()) {
            idleByLoop.get((EventLoop) channel.eventLoop()).addLast(channel);
        }
    }

    /**
     * Why a connection broke: {@link ExchangeFailure.TlsFailed} when a TLS error is among the
     * causes (a handshake fails the request's queued write first, then the pipeline), else
     * {@link ExchangeFailure.ConnectionLost} with {@code what} before the reason.
     */
    static ExchangeFailure broken(String what, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return new ExchangeFailure.TlsFailed(describe(cause));
            }
        }
        return new ExchangeFailure.ConnectionLost(what + describe(cause));
    }

    static String describe(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }

    /**
     * Closes every connection, then the event loops. Not from one of this client's loops. The
     * connections are closed here rather than left to the loops' shutdown: the simulator's loops
     * were seen to stop with their connections still open, and in a JVM that goes on (a library
     * user's, a test's) a connection left open stays open at the server too.
     */
    @Override
    public void close() {
        connections.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
