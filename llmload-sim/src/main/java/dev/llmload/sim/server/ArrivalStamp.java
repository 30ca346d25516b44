package dev.llmload.sim.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Instant;

/**
 * Stamps when each request's first byte was read from the socket: the first handler of the
 * pipeline, so the stamp comes before the HTTP codec, the aggregator and the handler's parsing,
 * tokenizing and engine hand-over, and a request the loop reads late is late from the wire's
 * point of view, not hidden. The ground truth counts every time of a request from this stamp.
 *
 * <p>A read in a pass over the sockets the kernel reported ready is stamped with the start of the
 * pass's first read ({@link QuantumEventLoop#ioPassStartNanos}): its bytes were in the kernel by
 * then, and a burst of requests read one after another is not stamped later and later by the
 * order of reading (64 requests sent within 6 ms were stamped over 60 ms by it).
 *
 * <p>The wall-clock reading ({@link Arrival#unixMicros}) is CLOCK_REALTIME read with the
 * monotonic one and moved back with it, the clock a packet capture stamps packets with, so the
 * two can be compared as instants without estimating an offset.
 *
 * <p>Threading: one per channel, used only on the channel's event loop.
 */
final class ArrivalStamp extends ChannelInboundHandlerAdapter {

    /** When a request's first byte was read: {@code System.nanoTime()} and the wall clock with it. */
    record Arrival(long nanos, long unixMicros) {
        long unixMs() {
            return Math.floorDiv(unixMicros, 1000);
        }
    }

    /** Whether bytes of a request not yet taken were read. */
    private boolean pending;

    private long firstNanos;
    private long firstUnixMicros;
    private long lastReadNanos;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long now = System.nanoTime();
        long stamp = ctx.channel().eventLoop() instanceof QuantumEventLoop loop ? loop.ioPassStartNanos(now) : now;
        lastReadNanos = stamp;
        if (!pending) {
            pending = true;
            firstNanos = stamp;
            firstUnixMicros = unixMicros(Instant.now()) - (System.nanoTime() - stamp) / 1000;
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * The arrival of the request the codec just completed, and the start of the next one's. A
     * request whose first byte came in the read that ended the one before it (a pipelining client)
     * arrived with that read.
     */
    Arrival take() {
        if (pending) {
            pending = false;
            return new Arrival(firstNanos, firstUnixMicros);
        }
        long sinceNanos = System.nanoTime() - lastReadNanos;
        return new Arrival(lastReadNanos, unixMicros(Instant.now()) - sinceNanos / 1000);
    }

    private static long unixMicros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000;
    }
}
