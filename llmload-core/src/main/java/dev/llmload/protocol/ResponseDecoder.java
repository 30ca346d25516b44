package dev.llmload.protocol;

/**
 * Reads one response of a {@link Dialect}: turns each framed message into {@link ResponseEvents}.
 * One instance per request, made by {@link Dialect#newDecoder} when the response head arrives and
 * used only by that request's event loop; it may keep state across the messages of its response
 * (cumulative text, counts spread over several events) and reuse its scratch space.
 *
 * <p>Contract:
 * <ul>
 *   <li>A message arrives as bytes, {@code data[offset, offset + length)}, UTF-8 as the server
 *       sent it: a slice of the framer's reused buffer (the same signature as
 *       {@link dev.llmload.http.sse.StreamFramer.Listener}, so a decoder's {@code message} is the
 *       framer's listener). The slice is valid only during the call: a decoder parses it there and
 *       keeps nothing of it but the strings and numbers it reads out.</li>
 *   <li>A decoder reads a message whole before it reports anything from it, so a malformed
 *       message reports nothing and throws {@link MalformedMessageException}, quoting the start of
 *       the message.</li>
 *   <li>It reads only what the measurement needs (generated text of each channel, token counts,
 *       usage, finish reason, errors, the end marker, the server's timings) and skips the rest
 *       unread, with the thread's reused parser ({@link MessageParser}), whose field names are
 *       canonical strings found, not made: a message costs no parser, no map and no string
 *       beyond the values reported.</li>
 * </ul>
 */
public interface ResponseDecoder {

    /**
     * One message of a streamed answer, framed as the dialect's {@link Dialect#streamFraming()}
     * says (for SSE: one event's data), as the bytes {@code data[offset, offset + length)}, valid
     * only during this call.
     *
     * @param eventType the SSE event type, or null (default type, or a framing without types)
     * @param nanos     the time of the read that completed the message
     */
    void message(String eventType, byte[] data, int offset, int length, long nanos);

    /** A whole, non-streamed success body, complete at {@code nanos}. */
    void body(byte[] body, long nanos);
}
