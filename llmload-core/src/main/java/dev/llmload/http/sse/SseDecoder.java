package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
 *   <li>An event reaches the {@link StreamFramer.Listener} as the bytes of its data, a slice of
 *       this decoder's own buffer that is valid only during the call (see the listener).</li>
 *   <li>Lines end with LF, CRLF or CR, also when a CRLF pair is split between two buffers.</li>
 *   <li>A blank line dispatches the event; lines starting with {@code :} are comments; a line is
 *       {@code field:value} with one optional space after the colon removed, or just a field name
 *       with an empty value. {@code data} lines are joined with {@code \n}; {@code event} sets the
 *       type; {@code id}, {@code retry} and unknown fields are ignored. An event without any
 *       {@code data} line is not dispatched.</li>
 *   <li>A UTF-8 byte order mark at the start of the stream is skipped. The event type is decoded
 *       as UTF-8 only once its whole line has arrived, and the data is passed on undecoded, so a
 *       multi-byte character split between buffers stays whole.</li>
 *   <li>Lines and events have no size limit of their own (the response's per-event byte limit
 *       bounds them). Content is never trimmed or rewritten beyond the rules above.</li>
 *   <li>{@link #endOfStream()} drops an unterminated event, as the SSE specification requires,
 *       and returns the decoder to its initial state for the next stream.</li>
 * </ul>
 *
 * <p>Threading: not thread-safe. An instance belongs to one stream and is used only by the event
 * loop thread of that stream's channel; the listener is called on that thread.
 *
 * <p>Allocation and memory: each read is copied once, in bulk, into a heap buffer its thread
 * lends ({@link FrameBuffer}), where it is scanned for line ends; a single-line event's data is
 * handed on where it lies, further data lines are moved down to join it. A dispatched event
 * allocates nothing; an {@code event} field costs a {@code String} only when it differs from the
 * previous one. Between reads the decoder keeps at most the event being gathered and a partial
 * line, and nothing when the last read ended on an event's end.
 */
public final class SseDecoder implements StreamFramer {

    private static final byte[] DATA = ascii("data");
    private static final byte[] EVENT = ascii("event");

    private final Listener listener;
    private final FrameBuffer buffer = new FrameBuffer();
    /** Where the line being scanned begins in the buffer. */
    private int lineStart;
    /**
     * The event's data so far, {@code [dataStart, dataEnd)} of the buffer, each data line followed
     * by LF (the last LF is left out at dispatch); empty when the two are equal.
     */
    private int dataStart;

    private int dataEnd;
    private String eventType;
    /** The last event type decoded, and its bytes: a stream of named events decodes each name once. */
    private String lastType;

    private byte[] lastTypeBytes;
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
        buffer.beginRead();
        try {
            while (index < end) {
                int kept = buffer.length;
                int shift = moved(buffer.refill(in, index, end, keepFrom()));
                kept -= shift;
                index += buffer.length - kept;
                scan(kept, nanos);
            }
        } finally {
            moved(buffer.endRead(keepFrom()));
        }
        in.readerIndex(end);
    }

    /** Where the bytes to keep begin: the event's data so far, or else the line being scanned. */
    private int keepFrom() {
        return dataEnd > dataStart ? dataStart : lineStart;
    }

    /** The buffer's bytes moved down by {@code shift}: so do the positions in it. */
    private int moved(int shift) {
        lineStart -= shift;
        if (dataEnd > dataStart) {
            dataStart -= shift;
            dataEnd -= shift;
        }
        return shift;
    }

    /** Decodes {@code length} bytes of {@code bytes} starting at {@code offset}, read at {@code nanos}. */
    public void feed(byte[] bytes, int offset, int length, long nanos) {
        feed(Unpooled.wrappedBuffer(bytes, offset, length), nanos);
    }

    /** The input has ended: an event not yet terminated by a blank line is dropped. */
    @Override
    public void endOfStream() {
        buffer.reset();
        lineStart = 0;
        dataStart = 0;
        dataEnd = 0;
        eventType = null;
        atStreamStart = true;
        skipLineFeed = false;
    }

    /** What the decoder holds on to between reads, in bytes. */
    int bufferCapacity() {
        return buffer.capacity();
    }

    /** Processes every line that ends in the buffer's bytes from {@code from} on. */
    private void scan(int from, long nanos) {
        byte[] bytes = buffer.bytes;
        int end = buffer.length;
        int i = from;
        while (i < end) {
            if (skipLineFeed) {
                skipLineFeed = false;
                if (bytes[i] == '\n') {
                    lineStart = ++i;
                    continue;
                }
            }
            int lineEnd = indexOfLineEnd(bytes, i, end);
            if (lineEnd < 0) {
                return;
            }
            skipLineFeed = bytes[lineEnd] == '\r';
            processLine(bytes, lineStart, lineEnd, nanos);
            i = lineEnd + 1;
            lineStart = i;
        }
    }

    /** The line {@code bytes[start, end)}; the byte at {@code end} was its line end and may be overwritten. */
    private void processLine(byte[] bytes, int start, int end, long nanos) {
        if (atStreamStart) {
            atStreamStart = false;
            if (end - start >= 3
                    && bytes[start] == (byte) 0xEF
                    && bytes[start + 1] == (byte) 0xBB
                    && bytes[start + 2] == (byte) 0xBF) {
                start += 3;
            }
        }
        if (start == end) {
            dispatch(nanos);
        } else if (bytes[start] != ':') {
            int colon = indexOf(bytes, start, end, (byte) ':');
            int fieldEnd = colon < 0 ? end : colon;
            int valueStart = colon < 0 ? end : colon + 1;
            if (valueStart < end && bytes[valueStart] == ' ') {
                valueStart++;
            }
            if (regionEquals(bytes, start, fieldEnd, DATA)) {
                appendData(bytes, valueStart, end);
            } else if (regionEquals(bytes, start, fieldEnd, EVENT)) {
                eventType = valueStart == end ? null : typeName(bytes, valueStart, end);
            }
        }
    }

    /**
     * Adds a data line's value and its LF to the event's data. The first value stays where it is
     * (its line end becomes the LF); a later one moves down to follow the data before it, which
     * always lies earlier in the buffer than the line being processed.
     */
    private void appendData(byte[] bytes, int valueStart, int lineEnd) {
        if (dataEnd == dataStart) {
            dataStart = valueStart;
            dataEnd = lineEnd;
        } else {
            System.arraycopy(bytes, valueStart, bytes, dataEnd, lineEnd - valueStart);
            dataEnd += lineEnd - valueStart;
        }
        bytes[dataEnd++] = '\n';
    }

    private void dispatch(long nanos) {
        String type = eventType;
        eventType = null;
        if (dataEnd == dataStart) {
            return;
        }
        int from = dataStart;
        int length = dataEnd - 1 - dataStart;
        dataStart = 0;
        dataEnd = 0;
        listener.onMessage(type, buffer.bytes, from, length, nanos);
    }

    private String typeName(byte[] bytes, int from, int to) {
        if (lastTypeBytes == null || !Arrays.equals(bytes, from, to, lastTypeBytes, 0, lastTypeBytes.length)) {
            lastTypeBytes = Arrays.copyOfRange(bytes, from, to);
            lastType = new String(lastTypeBytes, StandardCharsets.UTF_8);
        }
        return lastType;
    }

    private static int indexOfLineEnd(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b == '\n' || b == '\r') {
                return i;
            }
        }
        return -1;
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
}
