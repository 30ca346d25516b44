package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ByteProcessor;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Incremental decoder of a Server-Sent-Events stream, following the WHATWG "event stream
 * interpretation" rules, fed with bytes as they arrive from the network.
 *
 * <p>Contract:
 * <ul>
 *   <li>Events are delivered synchronously from inside {@link #feed}, each with the time the
 *       caller gave with the bytes that completed it: the caller passes the time of the network
 *       read with every buffer, and that is the arrival time of every event the buffer
 *       completes. An event begun in one read and finished in a later one carries the later
 *       read's time.</li>
 *   <li>Lines end with LF, CRLF or CR, also when a CRLF pair is split between two buffers.</li>
 *   <li>A blank line dispatches the event; lines starting with {@code :} are comments; a line is
 *       {@code field:value} with one optional space after the colon removed, or just a field name
 *       with an empty value. {@code data} lines are joined with {@code \n}; {@code event} sets the
 *       type; {@code id}, {@code retry} and unknown fields are ignored. An event without any
 *       {@code data} line is not dispatched.</li>
 *   <li>A UTF-8 byte order mark at the start of the stream is skipped. Text is decoded as UTF-8
 *       only once a whole line (for data: a whole event) has arrived, so a multi-byte character
 *       split between buffers decodes correctly.</li>
 *   <li>Lines and events have no size limit. Content is never trimmed or rewritten beyond the
 *       rules above.</li>
 *   <li>{@link #endOfStream()} drops an unterminated event, as the SSE specification requires,
 *       and returns the decoder to its initial state for the next stream.</li>
 * </ul>
 *
 * <p>Threading: not thread-safe. An instance belongs to one stream and is used only by the event
 * loop thread of that stream's channel; the listener is called on that thread.
 *
 * <p>Allocation: the current line and the current event's data accumulate in reusable byte
 * buffers; a dispatched event costs one {@code String} for its data (plus one for its type when an
 * {@code event} field is present).
 */
public final class SseDecoder implements StreamFramer {

    /** Receives each complete event, on the thread that called {@link #feed}. */
    public interface Listener {
        /**
         * @param eventType the value of the event's {@code event} field, or {@code null} when it
         *                  has none (or an empty one): the SSE default type "message"
         * @param data      the event's {@code data} lines joined with {@code \n}; may be empty
         * @param nanos     the time given to {@link #feed} with the bytes that completed the event
         */
        void onEvent(String eventType, String data, long nanos);
    }

    private static final byte[] DATA = ascii("data");
    private static final byte[] EVENT = ascii("event");
    private static final int INITIAL_CAPACITY = 1024;
    /** A buffer grown beyond this by a huge event is not kept for the next stream. */
    private static final int RETAINED_CAPACITY = 64 * 1024;

    private final Listener listener;
    private final GrowableBytes line = new GrowableBytes();
    /** The event's data lines so far, each followed by LF (the last LF is dropped at dispatch). */
    private final GrowableBytes data = new GrowableBytes();
    private String eventType;
    private boolean atStreamStart = true;
    /** The previous line ended with CR: an LF that comes next completes that CRLF, not a new line. */
    private boolean skipLineFeed;

    public SseDecoder(Listener listener) {
        this.listener = listener;
    }

    /**
     * Decodes all readable bytes of {@code in} and advances its reader index; does not release it.
     *
     * @param nanos when the bytes were read; passed on with every event they complete
     */
    @Override
    public void feed(ByteBuf in, long nanos) {
        int index = in.readerIndex();
        int end = in.writerIndex();
        while (index < end) {
            if (skipLineFeed) {
                skipLineFeed = false;
                if (in.getByte(index) == '\n') {
                    index++;
                    continue;
                }
            }
            int lineEnd = in.forEachByte(index, end - index, ByteProcessor.FIND_CRLF);
            if (lineEnd < 0) {
                line.append(in, index, end - index);
                break;
            }
            line.append(in, index, lineEnd - index);
            skipLineFeed = in.getByte(lineEnd) == '\r';
            index = lineEnd + 1;
            processLine(nanos);
        }
        in.readerIndex(end);
    }

    /** Decodes {@code length} bytes of {@code bytes} starting at {@code offset}, read at {@code nanos}. */
    public void feed(byte[] bytes, int offset, int length, long nanos) {
        feed(Unpooled.wrappedBuffer(bytes, offset, length), nanos);
    }

    /** The input has ended: an event not yet terminated by a blank line is dropped. */
    @Override
    public void endOfStream() {
        line.reset();
        data.reset();
        eventType = null;
        atStreamStart = true;
        skipLineFeed = false;
    }

    private void processLine(long nanos) {
        byte[] bytes = line.bytes;
        int length = line.length;
        int start = 0;
        if (atStreamStart) {
            atStreamStart = false;
            if (length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF) {
                start = 3;
            }
        }
        if (start == length) {
            dispatch(nanos);
        } else if (bytes[start] != ':') {
            int colon = indexOf(bytes, start, length, (byte) ':');
            int fieldEnd = colon < 0 ? length : colon;
            int valueStart = colon < 0 ? length : colon + 1;
            if (valueStart < length && bytes[valueStart] == ' ') {
                valueStart++;
            }
            if (regionEquals(bytes, start, fieldEnd, DATA)) {
                data.append(bytes, valueStart, length - valueStart);
                data.append((byte) '\n');
            } else if (regionEquals(bytes, start, fieldEnd, EVENT)) {
                eventType = valueStart == length
                        ? null
                        : new String(bytes, valueStart, length - valueStart, StandardCharsets.UTF_8);
            }
        }
        line.clear();
    }

    private void dispatch(long nanos) {
        if (data.length == 0) {
            eventType = null;
            return;
        }
        String text = new String(data.bytes, 0, data.length - 1, StandardCharsets.UTF_8);
        String type = eventType;
        // Reset before calling out, so a listener that feeds this decoder again sees a clean state.
        data.clear();
        eventType = null;
        listener.onEvent(type, text, nanos);
    }

    private static int indexOf(byte[] bytes, int from, int to, byte wanted) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static boolean regionEquals(byte[] bytes, int from, int to, byte[] expected) {
        return Arrays.equals(bytes, from, to, expected, 0, expected.length);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** A byte array that doubles when full and is reused across lines and events. */
    private static final class GrowableBytes {
        byte[] bytes = new byte[INITIAL_CAPACITY];
        int length;

        void append(ByteBuf source, int index, int count) {
            ensureRoom(count);
            source.getBytes(index, bytes, length, count);
            length += count;
        }

        void append(byte[] source, int offset, int count) {
            ensureRoom(count);
            System.arraycopy(source, offset, bytes, length, count);
            length += count;
        }

        void append(byte b) {
            ensureRoom(1);
            bytes[length++] = b;
        }

        void clear() {
            length = 0;
        }

        /** Clears, and gives back the memory of a buffer that one huge event made large. */
        void reset() {
            length = 0;
            if (bytes.length > RETAINED_CAPACITY) {
                bytes = new byte[INITIAL_CAPACITY];
            }
        }

        private void ensureRoom(int count) {
            int needed = Math.addExact(length, count);
            if (needed > bytes.length) {
                int doubled = bytes.length > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE - 8 : bytes.length * 2;
                bytes = Arrays.copyOf(bytes, Math.max(needed, doubled));
            }
        }
    }
}
