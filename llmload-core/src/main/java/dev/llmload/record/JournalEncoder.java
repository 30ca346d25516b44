package dev.llmload.record;

import static dev.llmload.record.JournalFormat.micros;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.llmload.record.JournalFormat.Field;
import dev.llmload.record.JournalFormat.ServerField;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * A record as its journal line ({@link JournalFormat}), and the record that line reads back as,
 * without reading it ({@link #atJournalPrecision}). Pure.
 */
final class JournalEncoder {

    private JournalEncoder() {}

    /** What {@code epochOriginNanos} is when the wall-clock time of the run's start is not known. */
    static final long NO_EPOCH = Long.MIN_VALUE;

    static String toJson(RequestRecord r) {
        return toJson(r, false, NO_EPOCH);
    }

    /**
     * @param pending          mark the line provisional ({@link Field#COUNTS_PENDING})
     * @param epochOriginNanos the run's start (offset 0 of the record's timings) in nanoseconds
     *                         since the Unix epoch, for the {@code *_epoch_ns} fields; {@link #NO_EPOCH} for none
     */
    static String toJson(RequestRecord r, boolean pending, long epochOriginNanos) {
        StringWriter text = new StringWriter(256 + r.tokenEventCounts().length * 12);
        try (JsonGenerator json = JournalFormat.JSON.createGenerator(text)) {
            json.writeStartObject();
            json.writeNumberField(Field.INDEX.key, r.index());
            json.writeStringField(Field.REQUEST_ID.key, r.requestId());
            json.writeBooleanField(Field.WARMUP.key, r.warmup());
            if (r.session() != null) {
                json.writeNumberField(Field.SESSION_ID.key, r.session().sessionId());
                json.writeNumberField(Field.TURN.key, r.session().turn());
                if (r.session().parentSessionId() != null) {
                    json.writeNumberField(
                            Field.PARENT_SESSION_ID.key, r.session().parentSessionId());
                }
            }
            json.writeStringField(Field.OUTCOME.key, r.outcome().key());
            if (r.outcome() instanceof Outcome.Failure failure) {
                json.writeStringField(Field.ERROR.key, failure.message());
                if (failure.timeoutKind() != null) {
                    json.writeStringField(
                            Field.TIMEOUT_KIND.key, failure.timeoutKind().key());
                }
            }
            json.writeNumberField(Field.HTTP_STATUS.key, r.httpStatus());
            json.writeBooleanField(Field.STREAMED.key, r.streamed());
            json.writeNumberField(Field.INPUT_TOKENS.key, r.inputTokens());
            json.writeStringField(
                    Field.INPUT_TOKENS_SOURCE.key,
                    r.inputTokensFromServer() ? JournalFormat.SOURCE_SERVER : JournalFormat.SOURCE_WORKLOAD);
            json.writeNumberField(Field.OUTPUT_TOKENS.key, r.outputTokens());
            json.writeStringField(
                    Field.OUTPUT_TOKENS_SOURCE.key, r.outputTokenSource().key());
            json.writeStringField(Field.FINISH_REASON.key, r.finishReason());
            if (r.retryAfter() != null) {
                json.writeStringField(Field.RETRY_AFTER.key, r.retryAfter());
            }
            RequestTimings t = r.timings();
            writeMs(json, Field.INTENDED_SEND_MS, t.intendedSendNanos());
            writeMs(json, Field.SENT_MS, t.sentNanos());
            writeRelative(json, Field.FIRST_BYTE_MS, t.firstByteNanos(), t.sentNanos());
            writeRelative(json, Field.TTFT_MS, t.firstTokenNanos(), t.sentNanos());
            writeRelative(json, Field.TTFC_MS, t.firstContentNanos(), t.sentNanos());
            writeRelative(json, Field.E2E_LATENCY_MS, r.streamed() ? t.lastTokenNanos() : t.endNanos(), t.sentNanos());
            writeRelative(json, Field.END_MS, t.endNanos(), t.sentNanos());
            if (epochOriginNanos != NO_EPOCH) {
                writeEpoch(json, Field.SENT_EPOCH_NS, t.sentNanos(), epochOriginNanos);
                writeEpoch(json, Field.FIRST_BYTE_EPOCH_NS, t.firstByteNanos(), epochOriginNanos);
                writeEpoch(json, Field.END_EPOCH_NS, t.endNanos(), epochOriginNanos);
            }
            json.writeArrayFieldStart(Field.TOKEN_TIMES_MS.key);
            for (long time : t.tokenEventNanos()) {
                writeMillis(json, micros(time - t.sentNanos()));
            }
            json.writeEndArray();
            json.writeArrayFieldStart(Field.TOKEN_COUNTS.key);
            for (int count : r.tokenEventCounts()) {
                json.writeNumber(count);
            }
            json.writeEndArray();
            if (r.serverTimings() != null) {
                writeServerTimings(json, r.serverTimings());
            }
            if (pending) {
                json.writeBooleanField(Field.COUNTS_PENDING.key, true);
            }
            if (r.text().anyKnown()) {
                writeCount(json, Field.INPUT_WORDS, r.text().inputWords());
                writeCount(json, Field.INPUT_CHARACTERS, r.text().inputCharacters());
                writeCount(json, Field.OUTPUT_WORDS, r.text().outputWords());
                writeCount(json, Field.OUTPUT_CHARACTERS, r.text().outputCharacters());
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    /** A count of {@link TextCounts}, null where it was not known. */
    private static void writeCount(JsonGenerator json, Field field, int count) throws IOException {
        if (count == TextCounts.UNKNOWN) {
            json.writeNullField(field.key);
        } else {
            json.writeNumberField(field.key, count);
        }
    }

    /** The server's own timings, as it reported them (milliseconds); fields it did not report are left out. */
    private static void writeServerTimings(JsonGenerator json, ServerTimings s) throws IOException {
        json.writeObjectFieldStart(Field.SERVER_TIMINGS.key);
        writeReported(json, ServerField.LOAD_MS, s.loadMs());
        writeReported(json, ServerField.PREFILL_MS, s.prefillMs());
        writeReported(json, ServerField.DECODE_MS, s.decodeMs());
        writeReported(json, ServerField.TOTAL_MS, s.totalMs());
        if (s.cachedPromptTokens() >= 0) {
            json.writeNumberField(ServerField.CACHED_PROMPT_TOKENS.key, s.cachedPromptTokens());
        }
        json.writeEndObject();
    }

    private static void writeReported(JsonGenerator json, ServerField field, double ms) throws IOException {
        if (!Double.isNaN(ms)) {
            json.writeNumberField(field.key, reported(ms));
        }
    }

    /** A server's timing at the three decimals the line holds. */
    private static double reported(double ms) {
        return Double.isNaN(ms) ? Double.NaN : Math.round(ms * 1000.0) / 1000.0;
    }

    /** A moment (an offset from the run's start, or {@link RequestTimings#NEVER}) as epoch nanoseconds, or null. */
    private static void writeEpoch(JsonGenerator json, Field field, long nanos, long epochOriginNanos)
            throws IOException {
        if (nanos == RequestTimings.NEVER) {
            json.writeNullField(field.key);
        } else {
            json.writeNumberField(field.key, epochOriginNanos + nanos);
        }
    }

    private static void writeMs(JsonGenerator json, Field field, long nanos) throws IOException {
        json.writeFieldName(field.key);
        writeMillis(json, micros(nanos));
    }

    private static void writeRelative(JsonGenerator json, Field field, long nanos, long from) throws IOException {
        if (nanos < 0) {
            json.writeNullField(field.key);
        } else {
            json.writeFieldName(field.key);
            writeMillis(json, micros(nanos - from));
        }
    }

    /** Writes {@code micros / 1000.0} milliseconds exactly as {@link Double#toString} spells it. */
    private static void writeMillis(JsonGenerator json, long micros) throws IOException {
        char[] text = new char[JournalFormat.MILLIS_CHARS];
        int length = JournalFormat.millisText(micros, text);
        if (length < 0) {
            json.writeNumber(micros / 1000.0);
        } else {
            json.writeNumber(text, 0, length);
        }
    }

    /**
     * {@code record} as its journal line reads back ({@link JournalDecoder#fromJson}): the times
     * rounded to the microseconds the line holds, each token time and relative moment measured
     * from the rounded send time as the reader adds them up, a moment written as null (before the
     * run's start) {@link RequestTimings#NEVER}, and the server's timings at the three decimals
     * written. Valid for a record whose texts {@link #carriedAsIs}.
     */
    static RequestRecord atJournalPrecision(RequestRecord r) {
        RequestTimings t = r.timings();
        long sent = micros(t.sentNanos()) * 1000;
        long[] events = t.tokenEventNanos();
        long[] tokens = new long[events.length];
        for (int i = 0; i < events.length; i++) {
            tokens[i] = sent + micros(events[i] - t.sentNanos()) * 1000;
        }
        RequestTimings timings = new RequestTimings(
                micros(t.intendedSendNanos()) * 1000,
                sent,
                readBack(t.firstByteNanos(), t.sentNanos(), sent),
                readBack(t.firstTokenNanos(), t.sentNanos(), sent),
                readBack(t.firstContentNanos(), t.sentNanos(), sent),
                readBack(t.endNanos(), t.sentNanos(), sent),
                tokens);
        ServerTimings s = r.serverTimings();
        ServerTimings server = s == null
                ? null
                : new ServerTimings(
                        reported(s.loadMs()),
                        reported(s.prefillMs()),
                        reported(s.decodeMs()),
                        reported(s.totalMs()),
                        s.cachedPromptTokens() >= 0 ? s.cachedPromptTokens() : -1);
        return new RequestRecord(
                r.index(),
                r.requestId(),
                r.warmup(),
                timings,
                r.tokenEventCounts(),
                r.httpStatus(),
                r.outcome(),
                r.inputTokens(),
                r.inputTokensFromServer(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.finishReason(),
                r.streamed(),
                r.retryAfter(),
                r.session(),
                server,
                r.text());
    }

    /** A moment as {@link #writeRelative} writes it and the decoder reads it back. */
    private static long readBack(long nanos, long from, long sentAtJournalPrecision) {
        return nanos < 0 ? RequestTimings.NEVER : sentAtJournalPrecision + micros(nanos - from) * 1000;
    }

    /** Whether the record's texts come back from a line as they are: valid UTF-16, no lone surrogates. */
    static boolean carriedAsIs(RequestRecord r) {
        return noSurrogates(r.requestId())
                && noSurrogates(r.finishReason())
                && noSurrogates(r.retryAfter())
                && !(r.outcome() instanceof Outcome.Failure failure && !noSurrogates(failure.message()));
    }

    private static boolean noSurrogates(String text) {
        if (text != null) {
            for (int i = 0; i < text.length(); i++) {
                if (Character.isSurrogate(text.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }
}
