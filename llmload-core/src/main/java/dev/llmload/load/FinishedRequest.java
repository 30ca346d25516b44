package dev.llmload.load;

import dev.llmload.protocol.StreamChunk;
import dev.llmload.record.Outcome;
import java.util.List;

/**
 * What one request left behind when it ended, before token counting: the raw timestamps (absolute
 * {@link System#nanoTime()}), the text of each token-bearing event and the server's usage. The
 * recorder turns it into a {@code RequestRecord} off the I/O threads.
 */
public record FinishedRequest(
        PreparedRequest request,
        String requestId,
        boolean warmup,
        long intendedSendNanos,
        long sentNanos,
        long firstByteNanos,
        long firstTokenNanos,
        long firstContentNanos,
        long endNanos,
        long[] tokenEventNanos,
        List<String> tokenEventTexts,
        int httpStatus,
        Outcome outcome,
        StreamChunk.Usage usage,
        String finishReason,
        boolean streamed,
        String retryAfter) {}
