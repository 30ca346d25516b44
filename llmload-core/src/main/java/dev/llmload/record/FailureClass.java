package dev.llmload.record;

/** Why a request failed, as reported per class in {@code results.errors} (DESIGN.md §3). */
public enum FailureClass {
    /** HTTP 3xx: the endpoint moved; llmload never follows a redirect (it would carry the key elsewhere). */
    REDIRECT("redirect"),
    /** HTTP 4xx other than 429: usually a request the server refuses (too long, bad model name). */
    HTTP_4XX("http_4xx"),
    /** HTTP 429: the server or a gateway is rate limiting. */
    RATE_LIMITED("rate_limited"),
    HTTP_5XX("http_5xx"),
    /** The connection could not be made. */
    CONNECT("connect"),
    /** A connect, first-token, idle or total timeout (see {@link TimeoutKind}). */
    TIMEOUT("timeout"),
    /** HTTP 200, then an {@code error} object inside the stream. */
    STREAM_ERROR("stream_error"),
    /**
     * A malformed or truncated stream: bad JSON, the connection closed before the stream ended, a
     * stream that ended without its end marker, or a response past one of the response limits.
     */
    PROTOCOL("protocol"),
    /** Stopped by llmload itself: the run ended or was interrupted while the request was in flight. */
    CANCELLED("cancelled");

    private final String key;

    FailureClass(String key) {
        this.key = key;
    }

    /** The name used in reports and in {@code requests.jsonl}. */
    public String key() {
        return key;
    }

    public static FailureClass forHttpStatus(int status) {
        if (status == 429) {
            return RATE_LIMITED;
        }
        if (status >= 300 && status < 400) {
            return REDIRECT;
        }
        return status >= 500 ? HTTP_5XX : HTTP_4XX;
    }

    public static FailureClass fromKey(String key) {
        for (FailureClass value : values()) {
            if (value.key.equals(key)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown failure class: " + key);
    }
}
