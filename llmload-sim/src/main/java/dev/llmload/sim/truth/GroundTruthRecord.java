package dev.llmload.sim.truth;

/**
 * What the server did for one request, as one line of the ground-truth log. Its times are the
 * wire's: the request arrived when its first byte was read from the socket, and each token when
 * its bytes were written to the socket, so a packet capture of the same run agrees with them.
 *
 * @param requestId         the {@code x-request-id} of the response
 * @param arrivalUnixMs     wall-clock label of the arrival, in milliseconds
 * @param arrivalUnixMicros the arrival on the wall clock (CLOCK_REALTIME, as packet captures are
 *                          stamped), in microseconds; intervals below are from {@code System.nanoTime()}
 * @param submittedMs       the request was handed to the engine this long after arrival (reading the
 *                          rest of it, parsing, tokenizing); null for a refused request
 * @param scheduledMs       the engine scheduled the request this long after arrival; null if never
 * @param engineQueueMs     the engine's own queue time: from the hand-over to its scheduling; null if never
 * @param tokenTimesMs      offsets from arrival of every token-bearing write, each taken on the event
 *                          loop once the socket write that carries it returned
 * @param promptTokens      prompt length in tokens (cl100k_base)
 * @param cachedPromptTokens prompt tokens the engine found in its prefix cache when it first
 *                          scheduled the request; null from an engine without a prefix cache, or
 *                          for a request never scheduled
 * @param completionTokens  tokens written to the client
 * @param numMessages       chat messages in the request (1 for completions)
 * @param finishReason      {@code stop}, {@code length}, {@code abort}, or null when it never finished
 * @param outcome           {@code success}, {@code http_<status>}, {@code disconnect} (injected),
 *                          {@code stream_error}, {@code client_gone}
 * @param api               the API the request came through, as llmload's {@code --api} names it
 *                          ({@code chat}, {@code tgi}, {@code ollama}, ...); null for a request that
 *                          was refused before its API was known
 */
public record GroundTruthRecord(
        String requestId,
        long arrivalUnixMs,
        long arrivalUnixMicros,
        Double submittedMs,
        Double scheduledMs,
        Double engineQueueMs,
        double[] tokenTimesMs,
        int promptTokens,
        Integer cachedPromptTokens,
        int completionTokens,
        int numMessages,
        String finishReason,
        String outcome,
        String api) {}
