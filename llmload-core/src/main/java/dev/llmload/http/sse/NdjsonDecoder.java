package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Incremental framer of newline-delimited JSON (Ollama's native streams): each line is one
 * message, delivered with a null event type and the time of the read that completed it.
 *
 * <p>Contract: lines end with LF; a CR before the LF is dropped; blank lines (also those of only
 * spaces and tabs) are skipped. A line is decoded as UTF-8 only once it is whole, so a
 * multi-byte character split between reads decodes correctly. A last line without its LF is still
 * a message when the body ends ({@link #endOfStream}), with the time of the last read, since
 * NDJSON does not require the final newline. Lines have no size limit; content is not trimmed.
 *
 * <p>Threading and allocation: as {@link SseDecoder}: one stream, its event loop only; the line
 * accumulates in a reused buffer and a message costs one {@code String}.
 */
public final class NdjsonDecoder implements StreamFramer {

    private static final int INITIAL_CAPACITY = 1024;
    private static final int RETAINED_CAPACITY = 64 * 1024;

    private final SseDecoder.Listener listener;
    private byte[] line = new byte[INITIAL_CAPACITY];
    private int length;
    private long lastNanos;

    public NdjsonDecoder(SseDecoder.Listener listener) {
        this.listener = listener;
    }

    @Override
    public void feed(ByteBuf in, long nanos) {
        lastNanos = nanos;
        int index = in.readerIndex();
        int end = in.writerIndex();
        while (index < end) {
            int lineEnd = in.forEachByte(index, end - index, ByteProcessor.FIND_LF);
            if (lineEnd < 0) {
                append(in, index, end - index);
                break;
            }
            append(in, index, lineEnd - index);
            index = lineEnd + 1;
            dispatch(nanos);
        }
        in.readerIndex(end);
    }

    @Override
    public void endOfStream() {
        if (length > 0) {
            dispatch(lastNanos);
        }
        length = 0;
        if (line.length > RETAINED_CAPACITY) {
            line = new byte[INITIAL_CAPACITY];
        }
    }

    private void append(ByteBuf source, int index, int count) {
        int needed = Math.addExact(length, count);
        if (needed > line.length) {
            int doubled = line.length > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE - 8 : line.length * 2;
            line = Arrays.copyOf(line, Math.max(needed, doubled));
        }
        source.getBytes(index, line, length, count);
        length += count;
    }

    private void dispatch(long nanos) {
        int end = length;
        if (end > 0 && line[end - 1] == '\r') {
            end--;
        }
        boolean blank = true;
        for (int i = 0; i < end && blank; i++) {
            blank = line[i] == ' ' || line[i] == '\t';
        }
        length = 0;
        if (!blank) {
            listener.onEvent(null, new String(line, 0, end, StandardCharsets.UTF_8), nanos);
        }
    }
}
