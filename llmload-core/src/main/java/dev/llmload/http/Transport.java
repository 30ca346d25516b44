package dev.llmload.http;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Picks the native epoll transport where it loads (Linux), NIO elsewhere. */
public record Transport(IoHandlerFactory ioHandlerFactory, Class<? extends Channel> socketChannelClass, String name) {

    public static Transport best() {
        if (Epoll.isAvailable()) {
            return new Transport(EpollIoHandler.newFactory(), EpollSocketChannel.class, "epoll");
        }
        return new Transport(NioIoHandler.newFactory(), NioSocketChannel.class, "nio");
    }

    /** An event loop group of {@code threads} daemon threads named {@code prefix-N}. */
    public MultiThreadIoEventLoopGroup newGroup(int threads, String prefix) {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        return new MultiThreadIoEventLoopGroup(threads, factory, ioHandlerFactory);
    }
}
