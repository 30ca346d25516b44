package dev.llmload.protocol;

import java.nio.charset.StandardCharsets;

/** Hands a test's message text to a decoder as a framer does: as the bytes of a slice. */
final class Messages {

    private Messages() {}

    /** {@code text} as UTF-8 bytes, the whole of their own array. */
    static void send(ResponseDecoder decoder, String eventType, String text, long nanos) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        decoder.message(eventType, bytes, 0, bytes.length, nanos);
    }
}
