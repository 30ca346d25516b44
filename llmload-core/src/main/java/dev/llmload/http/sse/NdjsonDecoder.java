package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;

/**
 * Incremental framer of newline-delimited JSON (Ollama's native streams): each line is one
 * message, delivered with a null event type and the time of the read that completed it.
 *
 * <p>Contract: lines end with LF; a CR before the LF is dropped; blank lines (also those of only
 * spaces and tabs) are skipped. A line is passed on as bytes only once it is whole, so a
 * multi-byte character split between reads stays whole; the bytes are valid only during the
 * {@link StreamFramer.Listener} call. A last line without its LF is still a message when the body
 * ends ({@link #endOfStream}), with the time of the last read, since NDJSON does not require the
 * final newline. Lines have no size limit of their own; content is not trimmed.
 *
 * <p>Threading and memory: as {@link SseDecoder}: one stream, its event loop only; each read is
 * copied once into a buffer its thread lends ({@link FrameBuffer}), between reads the framer keeps
 * at most a partial line, and a message allocates nothing.
 */
public final class NdjsonDecoder implements StreamFramer {

    private final Listener listener;
    private final FrameBuffer buffer = new FrameBuffer();
    /** Where the line being scanned begins in the buffer. */
    private int lineStart;

    private long lastNanos;

    public NdjsonDecoder(Listener listener) {
        this.listener = listener;
    }

    @Override
    public void feed(ByteBuf in, long nanos) {
        lastNanos = nanos;
        int index = in.readerIndex();
        int end = in.writerIndex();
        buffer.beginRead();
        try {
            while (index < end) {
                int kept = buffer.length;
                int shift = buffer.refill(in, index, end, lineStart);
                kept -= shift;
                index += buffer.length - kept;
                lineStart -= shift;
                scan(kept, nanos);
            }
        } finally {
            lineStart -= buffer.endRead(lineStart);
        }
        in.readerIndex(end);
    }

    @Override
    public void endOfStream() {
        if (lineStart < buffer.length) {
            dispatch(lineStart, buffer.length, lastNanos);
        }
        buffer.reset();
        lineStart = 0;
    }

    /** What the framer holds on to between reads, in bytes. */
    int bufferCapacity() {
        return buffer.capacity();
    }

    private void scan(int from, long nanos) {
        byte[] bytes = buffer.bytes;
        int end = buffer.length;
        for (int i = from; i < end; i++) {
            if (bytes[i] == '\n') {
                dispatch(lineStart, i, nanos);
                lineStart = i + 1;
            }
        }
    }

    private void dispatch(int start, int end, long nanos) {
        byte[] bytes = buffer.bytes;
        if (end > start && bytes[end - 1] == '\r') {
            end--;
        }
        boolean blank = true;
        for (int i = start; i < end && blank; i++) {
            blank = bytes[i] == ' ' || bytes[i] == '\t';
        }
        if (!blank) {
            listener.onMessage(null, bytes, start, end - start, nanos);
        }
    }
}
