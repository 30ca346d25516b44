package dev.llmload.load;

import dev.llmload.http.sse.NdjsonDecoder;
import dev.llmload.http.sse.SseDecoder;
import dev.llmload.http.sse.StreamFramer;
import dev.llmload.protocol.Framing;

/** The framer of each {@link Framing} of a streamed answer. */
final class Framers {

    private Framers() {}

    /** A new framer for one stream; null for {@link Framing#WHOLE_BODY}, which is read whole. */
    static StreamFramer of(Framing framing, StreamFramer.Listener listener) {
        return switch (framing) {
            case SSE -> new SseDecoder(listener);
            case NDJSON -> new NdjsonDecoder(listener);
            case WHOLE_BODY -> null;
        };
    }
}
