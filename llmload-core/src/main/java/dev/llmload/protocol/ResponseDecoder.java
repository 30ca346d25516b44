package dev.llmload.protocol;

/**
 * Reads one response of a {@link Dialect}: turns each framed message into {@link ResponseEvents}.
 * One instance per request, made by {@link Dialect#newDecoder} when the response head arrives and
 * used only by that request's event loop; it may keep state across the messages of its response
 * (cumulative text, counts spread over several events) and reuse its scratch space.
 *
 * <p>A decoder reads a message whole before it reports anything from it, so a malformed message
 * reports nothing and throws {@link MalformedMessageException}.
 */
public interface ResponseDecoder {

    /**
     * One message of a streamed answer, framed as the dialect's {@link Dialect#streamFraming()}
     * says (for SSE: one event).
     *
     * @param eventType the SSE event type, or null (default type, or a framing without types)
     * @param nanos     the time of the read that completed the message
     */
    void message(String eventType, String data, long nanos);

    /** A whole, non-streamed success body, complete at {@code nanos}. */
    void body(byte[] body, long nanos);
}
