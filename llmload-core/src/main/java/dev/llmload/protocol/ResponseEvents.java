package dev.llmload.protocol;

import dev.llmload.record.ServerTimings;

/**
 * What a {@link ResponseDecoder} finds in a response, as typed events, in the order the server
 * sent them. Implemented by whoever measures the request; called on the request's event loop,
 * synchronously from inside {@link ResponseDecoder#message} or {@link ResponseDecoder#body}.
 * Every {@code nanos} is the time of the network read that completed the message, taken before
 * any of it was parsed.
 */
public interface ResponseEvents {

    /**
     * One token-bearing event: generated text, on the answer channel, the reasoning channel or
     * both. These events alone set TTFT, TTFC and every inter-token gap; a message without
     * generated text (a role-only chunk, a usage chunk) is not one.
     *
     * @param content   answer text, or null when the event has none (never empty)
     * @param reasoning reasoning text, or null when the event has none (never empty); at least one
     *                  of the two is set
     */
    void text(String content, String reasoning, long nanos);

    /**
     * How many tokens the text event just reported carried, as the server counts them (SGLang's
     * cumulative {@code completion_tokens}, differenced). Called right after that {@link #text};
     * dialects whose server gives no per-event count never call it, and the local tokenizer counts.
     */
    void tokenCount(int tokens);

    /** The server's own timings of the request (see {@link ServerTimings}); at most once per response. */
    void serverTimings(ServerTimings timings);

    /** The server's token counts for the request (-1 for a count it did not give). */
    void usage(Usage usage);

    /** Why the server stopped generating ({@code stop}, {@code length}, ...). */
    void finishReason(String reason);

    /** An error the server reported inside a response it had begun as a success. */
    void error(String message);

    /**
     * The dialect's own end-of-answer marker ({@code data: [DONE]} for OpenAI, the final event of
     * the native APIs): the stream ended as the dialect says it should, not merely because the
     * connection's body ended. A stream without it fails as {@code protocol}.
     */
    void endMarker();
}
