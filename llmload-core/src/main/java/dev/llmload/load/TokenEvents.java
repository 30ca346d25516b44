package dev.llmload.load;

import dev.llmload.record.RequestTimings;
import dev.llmload.record.TextCounts;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The token events of one response while it streams: when each arrived and its text, packed for
 * the thousands of streams a run holds open at once (docs/performance.md, heap per token event).
 *
 * <p>Times are kept as whole microseconds since the request's send, the precision the journal
 * writes them at ({@code token_times_ms}, three decimals, rounded as here), so the journal and
 * every figure computed from it are the same as from the nanosecond readings. Each event adds
 * to one byte log the difference from the previous event's time and the length of its text, as
 * variable-length integers (two or three bytes for the gaps of a stream, one for a token's
 * text), and its characters to one text buffer: one byte a character while the text is
 * Latin-1, two from the first character beyond. About nine bytes an event for English text,
 * against 8 for a {@code long} time, 4 for the end of its text in an {@code int[]} and its
 * characters before. Both buffers grow by half when full, not by doubling, so at most a third of
 * either is unused.
 *
 * <p>An event's text is kept unless it is known at once that nothing will read it (see
 * {@link #dropLastText}): the local tokenizer counts it when the server's usage does not confirm one
 * token per event, which a trailing usage chunk tells only once the response has ended, and a
 * session's next turn carries the whole answer.
 *
 * <p>Written and read on the request's event loop only; {@link #times} and {@link #texts} hand
 * on copies. Not thread-safe.
 */
final class TokenEvents {

    private static final int INITIAL_LOG_BYTES = 32;
    private static final int INITIAL_TEXT_CHARS = 64;
    private static final byte[] NO_BYTES = new byte[0];

    /** Per event: the zigzag-encoded change in microseconds since the previous event, then its text's length. */
    private byte[] log = NO_BYTES;

    private int logLength;
    /** The text while every character is Latin-1; null once {@link #utf16} holds it. */
    private byte[] latin1 = NO_BYTES;

    private char[] utf16;
    private int textLength;
    private int size;
    private long lastMicros;
    /** Where the last event's text length is in the log, and where its text starts: for {@link #dropLastText}. */
    private int lastLengthAt;

    private int lastTextFrom;

    /** Words and characters of every event's text, counted as it arrives, before any is dropped. */
    private final TextCounts.Counter counted = new TextCounts.Counter();
    /** An event came without text: a token whose text the server did not send, so no count is true. */
    private boolean textMissing;

    /**
     * Adds one event, {@code sinceSendNanos} after the request's send, with the text of its
     * channels (each may be null): reasoning first, then content.
     */
    void add(long sinceSendNanos, String reasoning, String content) {
        long micros = micros(sinceSendNanos);
        long change = micros - lastMicros;
        lastMicros = micros;
        int chars = (reasoning == null ? 0 : reasoning.length()) + (content == null ? 0 : content.length());
        if (log.length - logLength < 15) {
            log = Arrays.copyOf(log, Math.max(INITIAL_LOG_BYTES, logLength + 15 + logLength / 2));
        }
        writeVarint((change << 1) ^ (change >> 63));
        lastLengthAt = logLength;
        lastTextFrom = textLength;
        writeVarint(chars);
        if (reasoning != null) {
            append(reasoning);
            counted.add(reasoning);
        }
        if (content != null) {
            append(content);
            counted.add(content);
        }
        if (chars == 0) {
            textMissing = true;
        }
        size++;
    }

    int size() {
        return size;
    }

    /**
     * Forgets the text of the event just added, which nothing will read: the server counted its
     * tokens, and no session's next turn carries the answer. The event stays, with no text.
     */
    void dropLastText() {
        if (size > 0) {
            logLength = lastLengthAt;
            writeVarint(0);
            textLength = lastTextFrom;
        }
    }

    /**
     * {@code nanos} as the events' times are kept: whole microseconds after {@code sendNanos}; a
     * moment that never happened stays {@link RequestTimings#NEVER}. The request's other moments
     * after its send go through this too, so that the first token stays equal to the event it is
     * and the end never precedes the last event read with it. The journal writes every one of
     * them at this precision, so its lines are unchanged.
     */
    static long atMicroseconds(long nanos, long sendNanos) {
        return nanos == RequestTimings.NEVER ? nanos : sendNanos + micros(nanos - sendNanos) * 1000;
    }

    /** Rounded as the journal rounds ({@code Journal}'s {@code micros}). */
    private static long micros(long nanos) {
        return Math.round(nanos / 1000.0);
    }

    /** Each event's time, as {@code sendNanos} plus its whole microseconds since the send. */
    long[] times(long sendNanos) {
        long[] times = new long[size];
        long micros = 0;
        int at = 0;
        for (int i = 0; i < size; i++) {
            long zigzag = 0;
            int shift = 0;
            byte b;
            do {
                b = log[at++];
                zigzag |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            micros += (zigzag >>> 1) ^ -(zigzag & 1);
            times[i] = sendNanos + micros * 1000;
            at = skipVarint(at);
        }
        return times;
    }

    /** The events' texts, to read after the response has ended. */
    TokenTexts texts() {
        int[] ends = new int[size];
        int end = 0;
        int at = 0;
        for (int i = 0; i < size; i++) {
            at = skipVarint(at);
            int length = 0;
            int shift = 0;
            byte b;
            do {
                b = log[at++];
                length |= (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            end += length;
            ends[i] = end;
        }
        String text = utf16 != null
                ? new String(utf16, 0, textLength)
                : new String(latin1, 0, textLength, StandardCharsets.ISO_8859_1);
        return new TokenTexts(
                text,
                ends,
                textMissing ? TextCounts.UNKNOWN : counted.words(),
                textMissing ? TextCounts.UNKNOWN : counted.characters());
    }

    private int skipVarint(int at) {
        while (log[at++] < 0) {
            // a continuation byte
        }
        return at;
    }

    private void writeVarint(long value) {
        while ((value & ~0x7FL) != 0) {
            log[logLength++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        log[logLength++] = (byte) value;
    }

    private void append(String text) {
        int length = text.length();
        int needed = textLength + length;
        if (utf16 == null) {
            if (needed > latin1.length) {
                latin1 = Arrays.copyOf(latin1, grown(latin1.length, needed));
            }
            for (int i = 0; i < length; i++) {
                char c = text.charAt(i);
                if (c > 0xFF) {
                    inflate(needed);
                    text.getChars(i, length, utf16, textLength);
                    textLength = needed;
                    return;
                }
                latin1[textLength++] = (byte) c;
            }
        } else {
            if (needed > utf16.length) {
                utf16 = Arrays.copyOf(utf16, grown(utf16.length, needed));
            }
            text.getChars(0, length, utf16, textLength);
            textLength = needed;
        }
    }

    /** From one byte a character to two: a character beyond Latin-1 arrived. */
    private void inflate(int needed) {
        utf16 = new char[Math.max(latin1.length, needed)];
        for (int i = 0; i < textLength; i++) {
            utf16[i] = (char) (latin1[i] & 0xFF);
        }
        latin1 = null;
    }

    private static int grown(int capacity, int needed) {
        return Math.max(needed, Math.max(INITIAL_TEXT_CHARS, capacity + capacity / 2));
    }
}
