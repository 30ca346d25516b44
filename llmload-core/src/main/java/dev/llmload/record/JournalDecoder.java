package dev.llmload.record;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.llmload.record.JournalFormat.Field;
import dev.llmload.record.JournalFormat.ServerField;
import java.io.IOException;
import java.util.Arrays;

/**
 * A journal line ({@link JournalFormat}) in any JSON spelling, read with Jackson's streaming
 * parser field by field (no tree: a big journal's report reads millions of lines); fields the
 * format does not know are skipped. The lines in the encoder's own spelling are read faster by
 * {@link JournalLineScanner}, which leaves every other line to this. Pure.
 */
final class JournalDecoder {

    private JournalDecoder() {}

    /**
     * One journal line back as a record.
     *
     * @throws IOException when the line is not JSON, or a field the record needs is missing
     */
    static RequestRecord fromJson(String line) throws IOException {
        return parse(JournalFormat.JSON.createParser(line)).record();
    }

    /** The fields of the line {@code bytes[from, from + length)}. */
    static JournalLine parse(byte[] bytes, int from, int length) throws IOException {
        return parse(JournalFormat.JSON.createParser(bytes, from, length));
    }

    private static JournalLine parse(JsonParser parser) throws IOException {
        JournalLine l = new JournalLine();
        try (JsonParser json = parser) {
            expect(json.nextToken(), JsonToken.START_OBJECT);
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                Field field = Field.named(json.currentName());
                JsonToken value = json.nextToken();
                if (field == null) {
                    json.skipChildren();
                    continue;
                }
                switch (field) {
                    case INDEX -> l.index = json.getLongValue();
                    case REQUEST_ID -> l.requestId = text(json, value);
                    case WARMUP -> l.warmup = json.getBooleanValue();
                    case SESSION_ID -> l.sessionId = value == JsonToken.VALUE_NULL ? null : json.getLongValue();
                    case TURN -> l.turn = value == JsonToken.VALUE_NULL ? 0 : json.getIntValue();
                    case PARENT_SESSION_ID ->
                        l.parentSessionId = value == JsonToken.VALUE_NULL ? null : json.getLongValue();
                    case OUTCOME -> l.outcome = text(json, value);
                    case ERROR -> l.error = text(json, value);
                    case TIMEOUT_KIND -> l.timeoutKind = text(json, value);
                    case HTTP_STATUS -> l.httpStatus = json.getIntValue();
                    case STREAMED -> l.streamed = json.getBooleanValue();
                    case INPUT_TOKENS -> l.inputTokens = json.getIntValue();
                    case INPUT_TOKENS_SOURCE -> l.inputFromServer = JournalFormat.fromServer(text(json, value));
                    case OUTPUT_TOKENS -> l.outputTokens = json.getIntValue();
                    case OUTPUT_TOKENS_SOURCE -> l.outputFromServer = JournalFormat.fromServer(text(json, value));
                    // A few distinct values over millions of lines: one String each, not one per line.
                    case FINISH_REASON ->
                        l.finishReason = value == JsonToken.VALUE_NULL
                                ? null
                                : text(json, value).intern();
                    case RETRY_AFTER -> l.retryAfter = text(json, value);
                    case INTENDED_SEND_MS -> l.intended = nanos(json, value);
                    case SENT_MS -> l.sent = nanos(json, value);
                    case FIRST_BYTE_MS -> l.firstByte = nanos(json, value);
                    case TTFT_MS -> l.firstToken = nanos(json, value);
                    case TTFC_MS -> l.firstContent = nanos(json, value);
                    case E2E_LATENCY_MS, SENT_EPOCH_NS, FIRST_BYTE_EPOCH_NS, END_EPOCH_NS -> json.skipChildren();
                    case END_MS -> l.end = nanos(json, value);
                    case TOKEN_TIMES_MS -> {
                        l.tokenTimes = longs(json, value);
                        l.tokenTimesLength = l.tokenTimes.length;
                    }
                    case TOKEN_COUNTS -> {
                        l.tokenCounts = ints(json, value);
                        l.tokenCountsLength = l.tokenCounts.length;
                    }
                    case SERVER_TIMINGS -> l.serverTimings = serverTimings(json, value);
                    case COUNTS_PENDING -> l.countsPending = value == JsonToken.VALUE_TRUE;
                    case INPUT_WORDS -> l.inputWords = count(json, value);
                    case INPUT_CHARACTERS -> l.inputCharacters = count(json, value);
                    case OUTPUT_WORDS -> l.outputWords = count(json, value);
                    case OUTPUT_CHARACTERS -> l.outputCharacters = count(json, value);
                }
            }
        }
        return l;
    }

    private static void expect(JsonToken token, JsonToken expected) throws IOException {
        if (token != expected) {
            throw new IOException("expected " + expected + ", found " + token);
        }
    }

    private static String text(JsonParser json, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_NULL ? null : json.getValueAsString();
    }

    /** A count of {@link TextCounts}; {@link TextCounts#UNKNOWN} for JSON null. */
    private static int count(JsonParser json, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_NULL ? TextCounts.UNKNOWN : json.getIntValue();
    }

    /** Milliseconds at microsecond precision as nanoseconds; null for JSON null. */
    private static Long nanos(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        return micros(json, value) * 1000;
    }

    /**
     * Milliseconds as whole microseconds: {@code round(ms × 1000)}. A number in the encoder's form
     * is read as digits ({@link JournalFormat#decimalMicros}); any other form goes through the double.
     */
    private static long micros(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_FLOAT) {
            long micros =
                    JournalFormat.decimalMicros(json.getTextCharacters(), json.getTextOffset(), json.getTextLength());
            if (micros != JournalFormat.NOT_DECIMAL) {
                return micros;
            }
        }
        return Math.round(json.getValueAsDouble() * 1000.0);
    }

    private static long[] longs(JsonParser json, JsonToken value) throws IOException {
        expect(value, JsonToken.START_ARRAY);
        long[] values = new long[16];
        int n = 0;
        while (json.nextToken() != JsonToken.END_ARRAY) {
            if (n == values.length) {
                values = Arrays.copyOf(values, 2 * n);
            }
            values[n++] = micros(json, json.currentToken()) * 1000;
        }
        return Arrays.copyOf(values, n);
    }

    private static int[] ints(JsonParser json, JsonToken value) throws IOException {
        expect(value, JsonToken.START_ARRAY);
        int[] values = new int[16];
        int n = 0;
        while (json.nextToken() != JsonToken.END_ARRAY) {
            if (n == values.length) {
                values = Arrays.copyOf(values, 2 * n);
            }
            values[n++] = json.getValueAsInt();
        }
        return Arrays.copyOf(values, n);
    }

    /** The server's own timings, as it reported them; fields it did not report are NaN (or -1 cached tokens). */
    private static ServerTimings serverTimings(JsonParser json, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            json.skipChildren();
            return null;
        }
        double load = Double.NaN;
        double prefill = Double.NaN;
        double decode = Double.NaN;
        double total = Double.NaN;
        int cached = -1;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            ServerField field = ServerField.named(json.currentName());
            JsonToken token = json.nextToken();
            boolean number = token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT;
            if (field == null) {
                json.skipChildren();
                continue;
            }
            switch (field) {
                case LOAD_MS -> load = number ? json.getDoubleValue() : Double.NaN;
                case PREFILL_MS -> prefill = number ? json.getDoubleValue() : Double.NaN;
                case DECODE_MS -> decode = number ? json.getDoubleValue() : Double.NaN;
                case TOTAL_MS -> total = number ? json.getDoubleValue() : Double.NaN;
                case CACHED_PROMPT_TOKENS -> cached = token == JsonToken.VALUE_NULL ? -1 : json.getValueAsInt();
            }
        }
        return new ServerTimings(load, prefill, decode, total, cached);
    }
}
