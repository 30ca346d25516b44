package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.Arrays;

/**
 * A framer's bytes: during a read, the bytes of its stream not yet framed (the message being
 * gathered and the partial line) followed by the next bytes copied in from the read; between
 * reads, only what the framer must keep, usually nothing.
 *
 * <p>Why a copy: the reads arrive in Netty's direct buffers, where every single-byte access costs
 * a bounds and liveness check, and the dialects' JSON parser reads heap arrays. So each read is
 * copied in once, in bulk (one {@code getBytes} per buffer's worth, for which Netty, when it may
 * not use {@code sun.misc.Unsafe}, makes one {@code ByteBuffer} duplicate), and scanned and parsed
 * here.
 *
 * <p>Memory: a read is framed in one array its thread lends to whichever stream it is reading
 * ({@link #beginRead} to {@link #endRead}), so a stream in flight holds no buffer of its own
 * between reads: a server writes whole events, and a read ends on an event's end. What a read
 * leaves unframed (an event cut between two reads) is copied out, exactly, when it is at most
 * {@value #COPIED_OUT_BYTES} bytes, and copied back at the next read; a longer one keeps the lent
 * array, which its thread replaces, so that an event arriving over many reads is not copied out
 * and back each time. An array grows (doubling) only when the bytes it must keep — one message and
 * the line after it — fill it, never for a large read, which is copied in pieces of what fits; so
 * it stays under twice the longest message plus line of its stream, which the response's
 * per-event byte limit bounds. A thread's array that one huge message made larger than
 * {@value #RETAINED_CAPACITY} bytes is not lent again.
 *
 * <p>Threading: owned by its framer, so by one stream's event loop; the lent array belongs to that
 * thread. A read begun inside another read on the same thread (which the framers' listeners do not
 * do) frames in an array of its own.
 */
final class FrameBuffer {

    static final int INITIAL_CAPACITY = 512;
    /** A thread's array grown beyond this by a huge message is not lent again. */
    static final int RETAINED_CAPACITY = 64 * 1024;
    /** Unframed bytes up to this many are copied out at the end of a read; more keep the lent array. */
    static final int COPIED_OUT_BYTES = 256;

    /** The array each thread lends to the stream it reads; null while lent or not yet made. */
    private static final FastThreadLocal<Lender> LENDER = new FastThreadLocal<>() {
        @Override
        protected Lender initialValue() {
            return new Lender();
        }
    };

    private static final class Lender {
        byte[] bytes;
        boolean lent;
    }

    /** The bytes: during a read, the lent array or the framer's own; between reads, what is kept, or null. */
    byte[] bytes;
    /** Bytes {@code [0, length)} hold data: what the framer keeps, then what it has not scanned yet. */
    int length;

    private Lender lender;

    /** A read starts: its bytes are framed in the thread's array, after what the last read left. */
    void beginRead() {
        Lender thread = LENDER.get();
        if (thread.lent || length > COPIED_OUT_BYTES) {
            if (bytes == null) {
                bytes = new byte[INITIAL_CAPACITY];
            }
            return;
        }
        byte[] lent = thread.bytes != null ? thread.bytes : new byte[INITIAL_CAPACITY];
        thread.bytes = null;
        thread.lent = true;
        if (length > 0) {
            System.arraycopy(bytes, 0, lent, 0, length);
        }
        bytes = lent;
        lender = thread;
    }

    /**
     * Copies the next bytes of {@code in} from {@code index} (at most up to {@code end}) after the
     * buffer's data, first dropping the bytes before {@code keepFrom} and moving what is kept to
     * the start (usually nothing, or a partial line). Grows only when what is kept fills the buffer.
     *
     * @return how far the kept bytes moved down: the framer subtracts it from the positions it holds
     */
    int refill(ByteBuf in, int index, int end, int keepFrom) {
        int shift = keep(keepFrom);
        if (length == bytes.length) {
            int doubled = bytes.length > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE - 8 : bytes.length * 2;
            bytes = Arrays.copyOf(bytes, doubled);
        }
        int count = Math.min(end - index, bytes.length - length);
        in.getBytes(index, bytes, length, count);
        length += count;
        return shift;
    }

    /**
     * The read has ended: keeps the bytes from {@code keepFrom} on, out of the thread's array.
     *
     * @return how far the kept bytes moved down, as for {@link #refill}
     */
    int endRead(int keepFrom) {
        int shift = keep(keepFrom);
        Lender thread = lender;
        lender = null;
        if (thread != null) {
            thread.lent = false;
        }
        if (length > COPIED_OUT_BYTES) {
            // The framer keeps the array it framed in; a lent one the thread replaces when next asked.
            return shift;
        }
        byte[] used = bytes;
        bytes = length == 0 ? null : Arrays.copyOf(used, length);
        if (thread != null && used.length <= RETAINED_CAPACITY) {
            thread.bytes = used;
        }
        return shift;
    }

    /** Drops the bytes before {@code keepFrom}, moving the rest to the start; returns how far they moved. */
    private int keep(int keepFrom) {
        if (keepFrom > 0 && keepFrom < length) {
            System.arraycopy(bytes, keepFrom, bytes, 0, length - keepFrom);
        }
        length -= keepFrom;
        return keepFrom;
    }

    /** Forgets the data, between reads. */
    void reset() {
        length = 0;
        bytes = null;
    }

    /** What the framer holds on to between reads, in bytes. */
    int capacity() {
        return bytes == null ? 0 : bytes.length;
    }

    /** The capacity of the array the calling thread lends, 0 when it has none (for tests). */
    static int lentCapacity() {
        byte[] lent = LENDER.get().bytes;
        return lent == null ? 0 : lent.length;
    }
}
