package dev.llmload.protocol;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** Hands a test's message text to a decoder as a framer does: as the bytes of a slice. */
final class Messages {

    private Messages() {}

    /** {@code text} as UTF-8 bytes, the whole of their own array. */
    static void send(ResponseDecoder decoder, String eventType, String text, long nanos) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        decoder.message(eventType, bytes, 0, bytes.length, nanos);
    }

    /**
     * Bytes a decoder must never read: a JSON object of their own, repeated, so a decoder that read
     * past either end of its slice would see another object (or trailing content) and answer
     * differently or fail.
     */
    private static final byte[] OUTSIDE =
            "{\"error\":\"read outside the slice\",\"choices\":[{\"delta\":{\"content\":\"X\"}}]}\n"
                    .getBytes(StandardCharsets.UTF_8);

    /**
     * {@code text} as UTF-8 bytes placed at a random offset (never 0) of {@code shared}, an array
     * reused for every message as a framer's buffer is, with other bytes all around it.
     */
    static void sendEmbedded(
            ResponseDecoder decoder,
            String eventType,
            String text,
            long nanos,
            byte[] shared,
            SplittableRandom random) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < shared.length; i++) {
            shared[i] = OUTSIDE[i % OUTSIDE.length];
        }
        int offset = 1 + random.nextInt(shared.length - bytes.length - 1);
        System.arraycopy(bytes, 0, shared, offset, bytes.length);
        decoder.message(eventType, shared, offset, bytes.length, nanos);
    }
}
