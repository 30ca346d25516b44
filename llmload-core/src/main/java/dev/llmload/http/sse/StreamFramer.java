package dev.llmload.http.sse;

import io.netty.buffer.ByteBuf;

/**
 * Cuts a streamed response body into messages as its bytes arrive, and hands each whole message
 * to a {@link SseDecoder.Listener} with the time of the read that completed it. One instance per
 * stream, used only by that stream's event loop.
 */
public interface StreamFramer {

    /** Frames all readable bytes of {@code in}, read at {@code nanos}; advances its reader index. */
    void feed(ByteBuf in, long nanos);

    /** The body has ended; the framer is ready for a new stream. */
    void endOfStream();
}
