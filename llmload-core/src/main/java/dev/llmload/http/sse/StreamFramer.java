package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;

/**
 * Cuts a streamed response body into messages as its bytes arrive, and hands each whole message
 * to a {@link Listener} with the time of the read that completed it. One instance per stream, used
 * only by that stream's event loop.
 */
public interface StreamFramer {

    /** Frames all readable bytes of {@code in}, read at {@code nanos}; advances its reader index. */
    void feed(ByteBuf in, long nanos);

    /** The body has ended; the framer is ready for a new stream. */
    void endOfStream();

    /** Receives each complete message, on the thread that called {@link #feed} (or {@link #endOfStream}). */
    @FunctionalInterface
    interface Listener {
        /**
         * One message, as the bytes {@code data[offset, offset + length)} (UTF-8, not decoded).
         *
         * <p>The bytes are the framer's own reused buffer: they are valid only during this call and
         * are overwritten by the next message, so a listener copies what it keeps (a dialect's
         * decoder parses them here and keeps only the strings and counts it reads out). A listener
         * must not feed the same framer from inside this call.
         *
         * @param eventType the SSE event's {@code event} field, or {@code null} when it has none (or
         *                  an empty one: the SSE default type "message"), and always for NDJSON
         * @param nanos     the time given to {@link #feed} with the bytes that completed the message
         */
        void onMessage(String eventType, byte[] data, int offset, int length, long nanos);
    }
}
