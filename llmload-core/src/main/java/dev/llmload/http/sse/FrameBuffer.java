package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * A framer's one heap buffer: the bytes of its stream that are not yet framed (the message being
 * gathered and the partial line), followed by the next bytes copied in from a read.
 *
 * <p>Why a copy: the reads arrive in Netty's direct buffers, where every single-byte access costs
 * a bounds and liveness check, and the dialects' JSON parser reads heap arrays. So each read is
 * copied in once, in bulk (one {@code getBytes} per buffer's worth, for which Netty, when it may
 * not use {@code sun.misc.Unsafe}, makes one {@code ByteBuffer} duplicate), and scanned and parsed
 * here.
 *
 * <p>Memory: it starts at {@value #INITIAL_CAPACITY} bytes and grows (doubling) only when the
 * bytes it must keep — one message and the line after it — fill it, never for a large read, which
 * is copied in pieces of what fits. So it stays under twice the longest message plus line of its
 * stream, which the response's per-event byte limit bounds; {@link #reset} gives back a buffer that
 * one huge message made larger than {@value #RETAINED_CAPACITY} bytes, as does a refill that
 * finds nothing to keep.
 *
 * <p>Threading: owned by its framer, so by one stream's event loop.
 */
final class FrameBuffer {

    static final int INITIAL_CAPACITY = 512;
    /** A buffer grown beyond this by a huge message is not kept for the next one. */
    static final int RETAINED_CAPACITY = 64 * 1024;

    byte[] bytes = new byte[INITIAL_CAPACITY];
    /** Bytes {@code [0, length)} hold data: what the framer keeps, then what it has not scanned yet. */
    int length;

    /**
     * Copies the next bytes of {@code in} from {@code index} (at most up to {@code end}) after the
     * buffer's data, first dropping the bytes before {@code keepFrom} and moving what is kept to
     * the start (usually nothing, or a partial line). Grows only when what is kept fills the buffer.
     *
     * @return how far the kept bytes moved down: the framer subtracts it from the positions it holds
     */
    int refill(ByteBuf in, int index, int end, int keepFrom) {
        int shift = keepFrom;
        if (keepFrom == length && bytes.length > RETAINED_CAPACITY) {
            bytes = new byte[INITIAL_CAPACITY];
        } else if (keepFrom > 0) {
            System.arraycopy(bytes, keepFrom, bytes, 0, length - keepFrom);
        }
        length -= keepFrom;
        if (length == bytes.length) {
            int doubled = bytes.length > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE - 8 : bytes.length * 2;
            bytes = Arrays.copyOf(bytes, doubled);
        }
        int count = Math.min(end - index, bytes.length - length);
        in.getBytes(index, bytes, length, count);
        length += count;
        return shift;
    }

    /** Forgets the data, and gives back the memory of a buffer one huge message made large. */
    void reset() {
        length = 0;
        if (bytes.length > RETAINED_CAPACITY) {
            bytes = new byte[INITIAL_CAPACITY];
        }
    }

    int capacity() {
        return bytes.length;
    }
}
