package dev.llmload.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The form of a journal line, defined once for the three that use it: {@link JournalEncoder}
 * writes it, {@link JournalDecoder} reads any JSON spelling of it, {@link JournalLineScanner}
 * reads the encoder's own spelling straight from the bytes. A line is one JSON object whose
 * fields are the {@link Field}s, written in their order (a field that does not apply to the
 * request is left out); times are milliseconds at microsecond precision, spelled as
 * {@link #millisText} gives them; texts are JSON strings. docs/report.md describes the fields for
 * users. Pure.
 */
final class JournalFormat {

    private JournalFormat() {}

    /** FastDoubleParser for the token times: a big journal's report parses hundreds of millions. */
    static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .build();

    /** A line's fields, in the order the encoder writes them. */
    enum Field {
        INDEX("index"),
        REQUEST_ID("request_id"),
        WARMUP("warmup"),
        /** With {@link #TURN}, only for a turn of a multi-turn session. */
        SESSION_ID("session_id"),
        TURN("turn"),
        /** Only for a turn of a subagent: the session it forked from. */
        PARENT_SESSION_ID("parent_session_id"),
        /** {@code success} or the failure class's key ({@link Outcome#key}). */
        OUTCOME("outcome"),
        /** With {@link #TIMEOUT_KIND} (a timeout only), only for a failure. */
        ERROR("error"),
        TIMEOUT_KIND("timeout_kind"),
        HTTP_STATUS("http_status"),
        STREAMED("streamed"),
        INPUT_TOKENS("input_tokens"),
        /** {@link #SOURCE_SERVER} or {@link #SOURCE_WORKLOAD}. */
        INPUT_TOKENS_SOURCE("input_tokens_source"),
        OUTPUT_TOKENS("output_tokens"),
        /** {@link TokenSource#key}. */
        OUTPUT_TOKENS_SOURCE("output_tokens_source"),
        FINISH_REASON("finish_reason"),
        /** Only when the server sent one. */
        RETRY_AFTER("retry_after"),
        /** From the run's start. */
        INTENDED_SEND_MS("intended_send_ms"),
        /** From the run's start. */
        SENT_MS("sent_ms"),
        /** From the request's send, as every later moment; null when it never came. */
        FIRST_BYTE_MS("first_byte_ms"),
        TTFT_MS("ttft_ms"),
        TTFC_MS("ttfc_ms"),
        /** Written for the reader of the file; the decoders derive it and skip it. */
        E2E_LATENCY_MS("e2e_latency_ms"),
        END_MS("end_ms"),
        /**
         * The send ({@link #SENT_MS}) as nanoseconds since the Unix epoch, for joining with other
         * tools' records and logs; this and the next two are written for the reader of the file
         * only (the decoders skip them), and only where the writer knew the wall-clock time of the
         * run's start ({@link Journal#anchorWallClock}): a journal of an older llmload has none.
         * A journal merged from segments has each segment's, from that segment's own start.
         */
        SENT_EPOCH_NS("sent_epoch_ns"),
        /** The response head ({@link #FIRST_BYTE_MS}) since the Unix epoch, ns; null when it never came. */
        FIRST_BYTE_EPOCH_NS("first_byte_epoch_ns"),
        /** The end of the response or the failure ({@link #END_MS}) since the Unix epoch, ns. */
        END_EPOCH_NS("end_epoch_ns"),
        /** Each token-bearing event's time from the send. */
        TOKEN_TIMES_MS("token_times_ms"),
        /** Each event's tokens. */
        TOKEN_COUNTS("token_counts"),
        /** An object of {@link ServerField}s, only where the server reported its timings. */
        SERVER_TIMINGS("server_timings"),
        /** {@code true} on a provisional line only ({@link Journal#appendPending}). */
        COUNTS_PENDING("counts_pending"),
        /**
         * The words of the prompt ({@link TextCounts}); this and the next three are left out where
         * nothing was counted (a journal of an older llmload), and null where one was not known.
         */
        INPUT_WORDS("input_words"),
        /** The prompt's characters (Unicode code points). */
        INPUT_CHARACTERS("input_characters"),
        /** The answer's words; null where the server's stream carried a token without its text. */
        OUTPUT_WORDS("output_words"),
        /** The answer's characters; null likewise. */
        OUTPUT_CHARACTERS("output_characters");

        private static final Field[] ALL = values();
        private static final Map<String, Field> BY_KEY = new HashMap<>();

        static {
            for (Field field : ALL) {
                BY_KEY.put(field.key, field);
            }
        }

        final String key;
        /** The key's bytes (ASCII), for the scanner. */
        final byte[] keyBytes;

        Field(String key) {
            this.key = key;
            this.keyBytes = key.getBytes(StandardCharsets.US_ASCII);
        }

        /** The field named {@code key}; null for one the format does not know (a reader skips it). */
        static Field named(String key) {
            return BY_KEY.get(key);
        }

        /** The field at {@code ordinal}, or null past the last. */
        static Field at(int ordinal) {
            return ordinal < ALL.length ? ALL[ordinal] : null;
        }

        static int count() {
            return ALL.length;
        }
    }

    /** The fields of {@link Field#SERVER_TIMINGS}, in their order; one the server did not report is left out. */
    enum ServerField {
        LOAD_MS("load_ms"),
        PREFILL_MS("prefill_ms"),
        DECODE_MS("decode_ms"),
        TOTAL_MS("total_ms"),
        CACHED_PROMPT_TOKENS("cached_prompt_tokens");

        private static final Map<String, ServerField> BY_KEY = new HashMap<>();

        static {
            for (ServerField field : values()) {
                BY_KEY.put(field.key, field);
            }
        }

        final String key;

        ServerField(String key) {
            this.key = key;
        }

        static ServerField named(String key) {
            return BY_KEY.get(key);
        }
    }

    /** {@link Field#INPUT_TOKENS_SOURCE}: the server counted the prompt's tokens. */
    static final String SOURCE_SERVER = "server";
    /** {@link Field#INPUT_TOKENS_SOURCE}: the workload's count of the prompt's tokens. */
    static final String SOURCE_WORKLOAD = "workload";

    /** Whether a token-source value says the server counted (both source fields). */
    static boolean fromServer(String source) {
        return SOURCE_SERVER.equals(source);
    }

    /** Nanoseconds as the whole microseconds a line holds. */
    static long micros(long nanos) {
        return Math.round(nanos / 1000.0);
    }

    /** The most characters {@link #millisText} writes. */
    static final int MILLIS_CHARS = 16;

    /**
     * {@code Double.toString(micros / 1000.0)} into {@code text}, without the double and its
     * shortest-decimal search (a line has a number per token event): where the double is at least
     * 0.001 and below 10<sup>7</sup> in size, or zero, that is its plain decimal, the whole part,
     * a point and the thousandths without trailing zeros but at least one digit (no other decimal
     * of at most three places lies within the double's precision there). Returns the length, or
     * -1 outside that range (scientific notation: the encoder then writes the double).
     */
    static int millisText(long micros, char[] text) {
        if (micros <= -10_000_000_000L || micros >= 10_000_000_000L) {
            return -1;
        }
        int n = 0;
        long magnitude = micros;
        if (micros < 0) {
            text[n++] = '-';
            magnitude = -micros;
        }
        long whole = magnitude / 1000;
        int fraction = (int) (magnitude % 1000);
        int start = n;
        do {
            text[n++] = (char) ('0' + whole % 10);
            whole /= 10;
        } while (whole > 0);
        for (int i = start, j = n - 1; i < j; i++, j--) {
            char c = text[i];
            text[i] = text[j];
            text[j] = c;
        }
        text[n++] = '.';
        text[n++] = (char) ('0' + fraction / 100);
        if (fraction % 100 != 0) {
            text[n++] = (char) ('0' + fraction / 10 % 10);
            if (fraction % 10 != 0) {
                text[n++] = (char) ('0' + fraction % 10);
            }
        }
        return n;
    }

    /** What {@link #decimalMicros} gives for text that is not in the decimal form. */
    static final long NOT_DECIMAL = Long.MIN_VALUE;

    /**
     * Milliseconds in the form {@link #millisText} writes, {@code [-]d…d.d[d[d]]} with at most 12
     * digits before the point, as whole microseconds: exactly what {@code round(ms × 1000)} of the
     * parsed double gives (its error is far below half a microsecond); else {@link #NOT_DECIMAL}.
     * The scanner reads the same form from bytes (its {@code micros}).
     */
    static long decimalMicros(char[] text, int offset, int length) {
        int i = offset;
        int end = offset + length;
        boolean negative = i < end && text[i] == '-';
        if (negative) {
            i++;
        }
        long whole = 0;
        int digits = 0;
        while (i < end && text[i] >= '0' && text[i] <= '9') {
            whole = whole * 10 + (text[i++] - '0');
            digits++;
        }
        if (digits == 0 || digits > 12 || i >= end || text[i] != '.') {
            return NOT_DECIMAL;
        }
        i++;
        int decimals = end - i;
        if (decimals < 1 || decimals > 3) {
            return NOT_DECIMAL;
        }
        long fraction = 0;
        for (; i < end; i++) {
            char c = text[i];
            if (c < '0' || c > '9') {
                return NOT_DECIMAL;
            }
            fraction = fraction * 10 + (c - '0');
        }
        long micros = whole * 1000 + scaled(fraction, decimals);
        return negative ? -micros : micros;
    }

    /** {@code fraction} of {@code decimals} (1 to 3) digits as thousandths. */
    static long scaled(long fraction, int decimals) {
        return fraction * (decimals == 1 ? 100 : decimals == 2 ? 10 : 1);
    }
}
