package dev.llmload.protocol;

/**
 * How a response body is cut into the messages a {@link ResponseDecoder} reads. A dialect names
 * the framing of its streamed answers ({@link Dialect#streamFraming()}); any other response (an
 * error, a non-streamed answer, a stream the server refused) is read whole.
 */
public enum Framing {
    /** Server-Sent Events: each event's {@code data} (with its {@code event} type) is one message. */
    SSE("text/event-stream", "\n\n"),
    /** Newline-delimited JSON (Ollama's native API): each non-blank line is one message. */
    NDJSON("application/x-ndjson", "\n"),
    /** The whole body is one message, decoded once it has all arrived. */
    WHOLE_BODY(null, null);

    private final String mediaType;
    private final String messageEnd;

    Framing(String mediaType, String messageEnd) {
        this.mediaType = mediaType;
        this.messageEnd = messageEnd;
    }

    /**
     * What a server writes after each message of this framing (an SSE event's blank line, an NDJSON
     * line's end); null for {@link #WHOLE_BODY}. Readers accept more (SSE's {@code \r\n}); this is
     * the plain form, as llmload's own made-up streams are written.
     */
    public String messageEnd() {
        return messageEnd;
    }

    /** The media type a response of this framing is sent as; null for {@link #WHOLE_BODY}. */
    public String mediaType() {
        return mediaType;
    }

    /** The framing of a response: this stream framing for a 200 of its media type, else the whole body. */
    public Framing forResponse(int status, String contentType) {
        return mediaType != null && status == 200 && contentType.contains(mediaType) ? this : WHOLE_BODY;
    }
}
