package dev.llmload.load;

import java.util.Arrays;

/**
 * The text of each token event of one response, kept for what may read it once the response has
 * ended: the local tokenizer, when the server did not count the tokens itself, and a session's
 * next turn, which carries the whole answer. One growing character buffer and the end of each
 * event in it, not a {@code String} per event: a token's text is a few characters, and a string
 * object around them cost about 50 bytes of heap per event while the stream was in flight
 * (docs/performance.md, heap per token event). The buffer holds one byte per character while the
 * text is Latin-1.
 *
 * <p>Written on the request's event loop while the response streams; handed whole to the
 * recorder thread when it ends (through the recorder's queue, which publishes it) and only read
 * from then on. Not thread-safe.
 */
final class TokenTexts {

    private final StringBuilder text = new StringBuilder();
    private int[] ends = new int[16];
    private int size;

    /** Appends one event's text; null (an event with no text) is an empty one. */
    void add(String eventText) {
        if (eventText != null) {
            text.append(eventText);
        }
        if (size == ends.length) {
            ends = Arrays.copyOf(ends, size * 2);
        }
        ends[size++] = text.length();
    }

    int size() {
        return size;
    }

    /** The text of event {@code i}. */
    String event(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("event " + i + " of " + size);
        }
        return text.substring(i == 0 ? 0 : ends[i - 1], ends[i]);
    }

    /** Characters of all the events' text together. */
    int length() {
        return text.length();
    }

    /** Every event's text, in order. */
    String whole() {
        return text.toString();
    }

    /** No events. */
    static TokenTexts none() {
        return new TokenTexts();
    }
}
