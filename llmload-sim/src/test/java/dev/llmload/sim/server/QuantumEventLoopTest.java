package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The simulator's event loop goes back to its sockets once a task quantum is spent, however few
 * tasks that took: Netty's own loop reads the clock only every 64 tasks, and with heavy tasks (a
 * slice of token writes, a request's parsing) a request waited behind 64 of them.
 */
@Tag("loopback")
class QuantumEventLoopTest {

    /** Far above the 250 µs quantum's share of 64 tasks: a task takes two fifths of the quantum. */
    private static final long TASK_NANOS = 100_000;

    private static final int TASKS = 500;

    private final EventLoopGroup group = SimServer.eventLoops(1, NioIoHandler.newFactory());
    private final EventLoop loop = group.next();

    @AfterEach
    void stop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void aReadableSocketIsReadBetweenHeavyTasksWithinTheQuantumNotEvery64Tasks() throws Exception {
        // Touched on the loop only; read here after the latch, which orders them.
        int[] tasksSinceRead = {0};
        int[] mostTasksBetweenReads = {0};
        CountDownLatch firstRead = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(TASKS);
        Channel server = new ServerBootstrap()
                .group(loop)
                .channel(NioServerSocketChannel.class)
                // One byte per read and one read per poll: the socket stays readable for every poll.
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(1).maxMessagesPerRead(1))
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg);
                        tasksSinceRead[0] = 0;
                        firstRead.countDown();
                    }
                })
                .bind(InetAddress.getLoopbackAddress(), 0)
                .syncUninterruptibly()
                .channel();
        try (Socket client =
                new Socket(InetAddress.getLoopbackAddress(), ((InetSocketAddress) server.localAddress()).getPort())) {
            OutputStream out = client.getOutputStream();
            out.write(new byte[64 * 1024]);
            out.flush();
            assertThat(firstRead.await(10, TimeUnit.SECONDS)).isTrue();
            loop.execute(() -> {
                for (int i = 0; i < TASKS; i++) {
                    loop.execute(() -> {
                        long end = System.nanoTime() + TASK_NANOS;
                        while (System.nanoTime() - end < 0) {
                            Thread.onSpinWait();
                        }
                        tasksSinceRead[0]++;
                        mostTasksBetweenReads[0] = Math.max(mostTasksBetweenReads[0], tasksSinceRead[0]);
                        done.countDown();
                    });
                }
            });
            assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            server.close().syncUninterruptibly();
        }
        // About 3 with the quantum held per task (fewer when the host is loaded: a task never takes
        // less than its spin); 11 with a 1 ms quantum, 64 with Netty's check.
        assertThat(mostTasksBetweenReads[0])
                .as("most tasks the loop ran between two reads")
                .isBetween(1, 8);
    }

    /**
     * Sockets that became readable while the loop was busy are read in one pass, one after
     * another, and each read is stamped with the pass's start: no later for being read last.
     */
    @Test
    void everyReadOfOnePassIsStampedWithThePassStart() throws Exception {
        int sockets = 16;
        QuantumEventLoop quantumLoop = (QuantumEventLoop) loop;
        // Touched on the loop only; read here after the latch, which orders them.
        long[] stamps = new long[sockets];
        long[] readAt = new long[sockets];
        int[] reads = {0};
        CountDownLatch allRead = new CountDownLatch(sockets);
        Channel server = new ServerBootstrap()
                .group(loop)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ReferenceCountUtil.release(msg);
                                long now = System.nanoTime();
                                stamps[reads[0]] = quantumLoop.ioPassStartNanos(now);
                                readAt[reads[0]++] = now;
                                allRead.countDown();
                                // Each read takes a while, as a request's decoding does.
                                while (System.nanoTime() - now < 200_000) {
                                    Thread.onSpinWait();
                                }
                            }
                        });
                    }
                })
                .bind(InetAddress.getLoopbackAddress(), 0)
                .syncUninterruptibly()
                .channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        java.util.List<Socket> clients = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < sockets; i++) {
                clients.add(new Socket(InetAddress.getLoopbackAddress(), port));
            }
            Thread.sleep(100); // every connection accepted and registered
            // The loop is kept busy until every socket has its byte, so that all are ready at once.
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch written = new CountDownLatch(1);
            long[] busyEnd = {0};
            loop.execute(() -> {
                busy.countDown();
                try {
                    written.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                busyEnd[0] = System.nanoTime();
            });
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            for (Socket client : clients) {
                client.getOutputStream().write('x');
            }
            Thread.sleep(20); // loopback delivery is immediate; this is margin
            written.countDown();
            assertThat(allRead.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(stamps).as("one pass, one stamp").containsOnly(stamps[0]);
            assertThat(stamps[0]).isGreaterThanOrEqualTo(busyEnd[0]).isEqualTo(readAt[0]);
            assertThat(readAt[sockets - 1] - readAt[0])
                    .as("the last read came later than the stamp")
                    .isGreaterThanOrEqualTo((sockets - 1) * 200_000L);
            // A read outside a pass (on the loop, in a task) is stamped with its own time.
            long[] outside = new long[2];
            loop.submit(() -> {
                        outside[0] = System.nanoTime();
                        outside[1] = quantumLoop.ioPassStartNanos(outside[0]);
                    })
                    .syncUninterruptibly();
            assertThat(outside[1]).isEqualTo(outside[0]);
        } finally {
            for (Socket client : clients) {
                client.close();
            }
            server.close().syncUninterruptibly();
        }
    }
}
