package dev.llmload.record;

import java.util.Locale;

/** Which of the request's time limits ran out. */
public enum TimeoutKind {
    /** No connection within the connect timeout. */
    CONNECT,
    /** No generated text within the first-token timeout after the send. */
    FIRST_TOKEN,
    /** No data for longer than the idle timeout between two pieces of the stream. */
    IDLE,
    /** The whole request took longer than the request timeout. */
    TOTAL;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TimeoutKind fromKey(String key) {
        return valueOf(key.toUpperCase(Locale.ROOT));
    }
}
