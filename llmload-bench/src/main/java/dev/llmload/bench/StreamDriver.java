package dev.llmload.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A deliberately thin streaming load for the simulator's capacity benchmark
 * ({@code bench/sim-capacity.sh}): N keep-alive connections, each with one streamed completion in
 * flight at all times (a new one as soon as the last ends), counting SSE events without parsing
 * them. It measures the server, so it does as little per event as a client can; llmload's own
 * client records and parses every event and needs more than one core for 100,000 events/s.
 *
 * <p>Threading: {@code --threads} event loops (default 1) share the connections; each connection's
 * handler runs on its loop and adds to the shared counters, which the once-a-second report, on
 * one of the loops, reads. Its own window figures belong to that report alone.
 *
 * <p>Usage: {@code StreamDriver --url http://127.0.0.1:8000 --streams 5000 --max-tokens 1024
 * --ignore-eos false --seconds 40 --warmup 15 --threads 1}. Without {@code ignore_eos} the simulator draws each
 * output length (log-normal, mean 256), so the streams do not start and end in lockstep. Prints one line a second and a final {@code RESULT} line with the mean
 * rates after the warm-up.
 */
public final class StreamDriver {

    private final int streams;
    private final int warmupSeconds;
    private final int seconds;
    private final int threads;
    private final FullHttpRequest request;
    private final LongAdder events = new LongAdder();
    private final LongAdder responses = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder open = new LongAdder();
    // Owned by the report.
    private long windowEvents;
    private long windowResponses;
    private int elapsed;
    private long lastEvents;
    private long lastResponses;

    private StreamDriver(URI url, int streams, int maxTokens, boolean ignoreEos, int warmupSeconds, int seconds,
            int threads) {
        this.streams = streams;
        this.threads = threads;
        this.warmupSeconds = warmupSeconds;
        this.seconds = seconds;
        byte[] body = ("{\"model\":\"llmload-sim\",\"prompt\":\"benchmark the simulated engine\",\"max_tokens\":"
                + maxTokens + ",\"ignore_eos\":" + ignoreEos + ",\"stream\":true}").getBytes(StandardCharsets.UTF_8);
        request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/completions",
                Unpooled.unreleasableBuffer(Unpooled.directBuffer(body.length).writeBytes(body)));
        request.headers().set(HttpHeaderNames.HOST, url.getHost() + ":" + url.getPort())
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("--url", "http://127.0.0.1:8000", "--streams", "5000",
                "--max-tokens", "1024", "--ignore-eos", "false", "--seconds", "40", "--warmup", "15", "--threads", "1"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!options.containsKey(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; known: " + options.keySet());
            }
            options.put(args[i], args[i + 1]);
        }
        URI url = URI.create(options.get("--url"));
        new StreamDriver(url, Integer.parseInt(options.get("--streams")), Integer.parseInt(options.get("--max-tokens")),
                Boolean.parseBoolean(options.get("--ignore-eos")), Integer.parseInt(options.get("--warmup")),
                Integer.parseInt(options.get("--seconds")), Integer.parseInt(options.get("--threads"))).run(url);
    }

    private void run(URI url) throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("driver", true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        CountDownLatch done = new CountDownLatch(1);
        try {
            Bootstrap bootstrap = new Bootstrap().group(group)
                    .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 30_000)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new StreamHandler());
                        }
                    });
            for (int i = 0; i < streams; i++) {
                bootstrap.connect(url.getHost(), url.getPort()).addListener(f -> {
                    if (!f.isSuccess()) {
                        errors.increment();
                    }
                });
            }
            group.scheduleAtFixedRate(() -> tick(done), 1, 1, TimeUnit.SECONDS);
            done.await();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private void tick(CountDownLatch done) {
        elapsed++;
        long eventsNow = events.sum();
        long responsesNow = responses.sum();
        long eventsPerSecond = eventsNow - lastEvents;
        long responsesPerSecond = responsesNow - lastResponses;
        lastEvents = eventsNow;
        lastResponses = responsesNow;
        if (elapsed > warmupSeconds) {
            windowEvents += eventsPerSecond;
            windowResponses += responsesPerSecond;
        }
        System.out.printf(Locale.ROOT, "t=%ds streams_open=%d events/s=%d responses/s=%d errors=%d%n",
                elapsed, open.sum(), eventsPerSecond, responsesPerSecond, errors.sum());
        if (elapsed >= seconds) {
            int window = seconds - warmupSeconds;
            // Each completed response also carried a finish chunk and [DONE]: not tokens.
            System.out.printf(Locale.ROOT, "RESULT window_s=%d streams_open=%d events_per_s=%.0f tokens_per_s=%.0f "
                            + "responses_per_s=%.1f errors=%d%n", window, open.sum(), (double) windowEvents / window,
                    (double) (windowEvents - 2 * windowResponses) / window, (double) windowResponses / window,
                    errors.sum());
            done.countDown();
        }
    }

    /** One connection: sends a request, counts the events of its stream, sends the next at its end. */
    private final class StreamHandler extends SimpleChannelInboundHandler<HttpObject> {
        private boolean lastByteWasNewline;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            open.increment();
            send(ctx);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            open.decrement();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject message) {
            if (message instanceof HttpResponse response && response.status().code() != 200) {
                errors.increment();
            }
            if (message instanceof HttpContent content) {
                countEvents(content.content());
            }
            if (message instanceof LastHttpContent) {
                responses.increment();
                send(ctx);
            }
        }

        /** Counts blank lines ({@code \n\n}), which end SSE events, also across two reads. */
        private void countEvents(ByteBuf bytes) {
            for (int i = bytes.readerIndex(), end = bytes.writerIndex(); i < end; i++) {
                boolean newline = bytes.getByte(i) == '\n';
                if (newline && lastByteWasNewline) {
                    events.increment();
                }
                lastByteWasNewline = newline;
            }
        }

        private void send(ChannelHandlerContext ctx) {
            lastByteWasNewline = false;
            ctx.writeAndFlush(request.retainedDuplicate());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.increment();
            ctx.close();
        }
    }
}
