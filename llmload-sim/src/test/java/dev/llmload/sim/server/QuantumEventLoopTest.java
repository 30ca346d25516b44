package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
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

    /** Far above the 1 ms quantum's share of 64 tasks: a task takes a fifth of the quantum. */
    private static final long TASK_NANOS = 200_000;

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
        // About 5 with the quantum held per task (fewer when the host is loaded); 64 with Netty's check.
        assertThat(mostTasksBetweenReads[0])
                .as("most tasks the loop ran between two reads")
                .isBetween(1, 32);
    }
}
