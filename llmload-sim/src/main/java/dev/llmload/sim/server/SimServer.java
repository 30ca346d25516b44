package dev.llmload.sim.server;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.llmload.sim.engine.Engine;
import dev.llmload.sim.engine.FixedLatencyEngine;
import dev.llmload.sim.engine.batching.BatchingEngine;
import dev.llmload.sim.fault.FaultPlanner;
import dev.llmload.sim.fault.PauseWindow;
import dev.llmload.sim.metrics.SimMetrics;
import dev.llmload.sim.truth.GroundTruthLog;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The simulated OpenAI-compatible server: Netty HTTP/1.1 with keep-alive in front of an
 * {@link Engine}. {@link #start} binds and returns once the port is open; {@link #close} stops
 * listening, then the engine, then closes every open connection (once the loops wrote the engine's
 * last callbacks), then the event loops, then the ground-truth log.
 *
 * <p>Threading: {@code ioThreads} event loops ({@code sim-io-*}) serve the connections, each
 * connection on one loop, and the engine's callbacks reach each loop through its {@link LoopInbox};
 * the engine has its own thread.
 */
public final class SimServer implements AutoCloseable {

    private static final int MAX_REQUEST_BYTES = 64 * 1024 * 1024;
    private static final long TASK_QUANTUM_NANOS = 250_000;

    private final SimServices services;
    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final Map<EventLoop, LoopInbox> inboxes;
    /** Open connections; the group drops each one as it closes. */
    private final ChannelGroup connections;

    private SimServer(
            SimServices services,
            EventLoopGroup group,
            Channel serverChannel,
            Map<EventLoop, LoopInbox> inboxes,
            ChannelGroup connections) {
        this.services = services;
        this.group = group;
        this.serverChannel = serverChannel;
        this.inboxes = inboxes;
        this.connections = connections;
    }

    /** Guards {@link #warmUpAnswers}. */
    private static final Object WARM_UP_LOCK = new Object();

    /** How many of the process's warm-up requests were answered whole; -1 before the warm-up. */
    private static int warmUpAnswers = -1;

    /**
     * Serves requests of every streaming dialect to a throwaway server over loopback, so that a
     * server started after it serves its first requests with compiled code (a second of CPU; see
     * {@link LoopbackWarmUp}). For a server whose first seconds are measured: {@code llmload sim}
     * and the simulator {@code llmload run} embeds. Returns how many warm-up responses came whole.
     *
     * <p>Once per process: the code it compiles stays compiled for every later server of the
     * process, and a second warm-up in a warm JVM cost 0.7-1 s of wall clock for nothing (a
     * process that starts many simulators, as the tests' in-process runs do, paid it each time).
     * A caller that comes while the warm-up runs waits for it, so no server starts cold beside it.
     */
    public static int warmUpOverLoopback() {
        synchronized (WARM_UP_LOCK) {
            if (warmUpAnswers < 0) {
                warmUpAnswers = LoopbackWarmUp.run();
            }
            return warmUpAnswers;
        }
    }

    /**
     * The tokenizer every server of this process shares: loading its ranks takes about a second,
     * and an {@link Encoding} is immutable, so the warm-up's server and the real one (and a test's
     * many servers) load it once. Loaded when a server first starts.
     */
    private static final class Cl100k {
        static final Encoding ENCODING = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    }

    /** Starts the server with the engine {@code config} selects. */
    public static SimServer start(SimConfig config) {
        Engine engine = switch (config.engine()) {
            case BATCHING -> BatchingEngine.start(config.batching());
            case FIXED -> new FixedLatencyEngine(config.fixedLatencyModel(), config.maxModelLen(), config.seed());
        };
        return start(config, engine);
    }

    /** Starts the server in front of {@code engine}, which it closes on {@link #close}. */
    public static SimServer start(SimConfig config, Engine engine) {
        Encoding tokenizer = Cl100k.ENCODING;
        GroundTruthLog groundTruth =
                config.groundTruth() == null ? null : new GroundTruthLog(Path.of(config.groundTruth()));
        SimServices services = new SimServices(
                config,
                engine,
                new SimMetrics(config.model(), config.enablePrefixCaching()),
                new FaultPlanner(config.faults(), config.seed()),
                groundTruth,
                tokenizer,
                System.currentTimeMillis() / 1000);
        SimHttpHandler.warmUp(services);
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group =
                eventLoops(config.ioThreads(), epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        Map<EventLoop, LoopInbox> inboxes = new ConcurrentHashMap<>();
        ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        Class<? extends ServerChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        try {
            Channel channel = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            connections.add(ch);
                            ArrivalStamp arrival = new ArrivalStamp();
                            HttpServerCodec codec = new HttpServerCodec();
                            ch.pipeline()
                                    .addLast(
                                            arrival,
                                            codec,
                                            new HttpServerExpectContinueHandler(),
                                            new HttpObjectAggregator(MAX_REQUEST_BYTES));
                            Connection connection = new Connection(
                                    ch,
                                    ch.pipeline().context(codec),
                                    inboxes.computeIfAbsent(ch.eventLoop(), LoopInbox::new));
                            ch.pipeline().addLast(new SimHttpHandler(services, connection, arrival));
                        }
                    })
                    .bind(config.host(), config.port())
                    .syncUninterruptibly()
                    .channel();
            for (PauseWindow pause : config.pauses()) {
                group.schedule(
                        () -> engine.pause(Duration.ofMillis(pause.durationMs())), pause.atMs(), TimeUnit.MILLISECONDS);
            }
            return new SimServer(services, group, channel, inboxes, connections);
        } catch (Exception e) {
            // Exception, not RuntimeException: Netty throws a failed bind's BindException unchecked.
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            engine.close();
            if (groundTruth != null) {
                groundTruth.close();
            }
            throw e;
        }
    }

    /**
     * Netty's event loops with a task quantum of {@value #TASK_QUANTUM_NANOS} ns instead of Netty's
     * default of a second. Under a heavy streaming load the engine's callbacks keep the task queue
     * full ({@link LoopInbox}), and a loop only returns to its sockets when the queue is empty or
     * the quantum is spent: with the default, new requests and {@code /metrics} waited for seconds.
     * {@link QuantumEventLoop} holds the quantum after every task, where Netty checks every 64th.
     * A quarter of a millisecond, so that a request that comes while tasks run is read (and its
     * arrival stamped) well within a millisecond; a poll of sockets that has nothing to read costs
     * about a microsecond.
     */
    static EventLoopGroup eventLoops(int threads, IoHandlerFactory ioHandlerFactory) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("sim-io", true), ioHandlerFactory) {
            @Override
            protected IoEventLoop newChild(Executor executor, IoHandlerFactory factory, Object... args) {
                return new QuantumEventLoop(this, executor, factory, TASK_QUANTUM_NANOS);
            }
        };
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public String host() {
        return services.config().host();
    }

    /** {@code http://host:port}, the base of every endpoint. */
    public String url() {
        String host = host().contains(":") ? "[" + host() + "]" : host();
        return "http://" + host + ":" + port();
    }

    public Engine engine() {
        return services.engine();
    }

    /** Blocks until {@link #close} was called (from another thread). */
    public void awaitClosed() throws InterruptedException {
        serverChannel.closeFuture().await();
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        // The engine first, then its last callbacks (aborts of what was still running) through every
        // inbox, and only then the event loops: a stopping loop closes its connections first.
        services.engine().close();
        for (LoopInbox inbox : inboxes.values()) {
            inbox.awaitDrained(Duration.ofSeconds(2));
        }
        // Closed here, not left to the loops' shutdown: a stopping loop was seen to end with its
        // connections still open, and a client then waited on them for the rest of its run
        // instead of seeing the server go away.
        connections.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        if (services.groundTruth() != null) {
            services.groundTruth().close();
        }
    }
}
