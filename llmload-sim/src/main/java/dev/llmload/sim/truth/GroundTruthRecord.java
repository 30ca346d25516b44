package dev.llmload.sim.truth;

/**
 * What the server did for one request, as one line of the ground-truth log.
 *
 * @param requestId        the {@code x-request-id} of the response
 * @param arrivalUnixMs    wall-clock label of the arrival; intervals below are from {@code System.nanoTime()}
 * @param scheduledMs      the engine scheduled the request this long after arrival; null if never
 * @param tokenTimesMs     offsets from arrival of every token-bearing write, taken on the event loop as
 *                         the write is issued
 * @param promptTokens     prompt length in tokens (cl100k_base)
 * @param completionTokens tokens written to the client
 * @param numMessages      chat messages in the request (1 for completions)
 * @param finishReason     {@code stop}, {@code length}, {@code abort}, or null when it never finished
 * @param outcome          {@code success}, {@code http_<status>}, {@code disconnect} (injected),
 *                         {@code stream_error}, {@code client_gone}
 * @param api              the API the request came through, as llmload's {@code --api} names it
 *                         ({@code chat}, {@code tgi}, {@code ollama}, ...); null for a request that
 *                         was refused before its API was known
 */
public record GroundTruthRecord(
        String requestId,
        long arrivalUnixMs,
        Double scheduledMs,
        double[] tokenTimesMs,
        int promptTokens,
        int completionTokens,
        int numMessages,
        String finishReason,
        String outcome,
        String api) {}
