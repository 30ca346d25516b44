package dev.llmload.record;

import dev.llmload.record.JournalFormat.Field;
import java.io.IOException;
import java.util.Arrays;

/**
 * The fields of one journal line as a decoder read them ({@link JournalDecoder} from any JSON,
 * {@link JournalLineScanner} from the encoder's own bytes); {@link #record} and {@link #fill}
 * check that the fields a record needs were there. Owned by the thread that read the line.
 */
final class JournalLine {

    Long index;
    String requestId;
    Boolean warmup;
    Long sessionId;
    int turn;
    Long parentSessionId;
    String outcome;
    String error;
    String timeoutKind;
    Integer httpStatus;
    Boolean streamed;
    Integer inputTokens;
    Boolean inputFromServer;
    Integer outputTokens;
    Boolean outputFromServer;
    String finishReason;
    String retryAfter;
    Long intended;
    Long sent;
    Long firstByte;
    Long firstToken;
    Long firstContent;
    Long end;
    /** The token times from the send, the first {@link #tokenTimesLength} of the array. */
    long[] tokenTimes;

    int tokenTimesLength;
    /** The token counts, the first {@link #tokenCountsLength} of the array. */
    int[] tokenCounts;

    int tokenCountsLength;
    /** Where the scanner found the line's object to end, in the bytes it read them from. */
    int scannedEnd;
    /** Whether the token arrays are the scanner's, reused for the next line, rather than the line's own. */
    boolean borrowed;

    ServerTimings serverTimings;
    boolean countsPending;
    /** The {@link TextCounts}, each {@link TextCounts#UNKNOWN} where the line has none. */
    int inputWords = TextCounts.UNKNOWN;

    int inputCharacters = TextCounts.UNKNOWN;
    int outputWords = TextCounts.UNKNOWN;
    int outputCharacters = TextCounts.UNKNOWN;

    /** The record of the line; once: it takes the line's token times as its own. */
    RequestRecord record() throws IOException {
        return record(false);
    }

    /**
     * The record of the line, or with {@code withoutTokenGaps} what
     * {@link RequestRecord#withoutTokenGaps} keeps of it (the last token time, all the tokens),
     * made without the token arrays of the whole record; once either way.
     */
    RequestRecord record(boolean withoutTokenGaps) throws IOException {
        long sentNanos = need(sent, Field.SENT_MS);
        long[] times = need(tokenTimes, Field.TOKEN_TIMES_MS);
        int[] counts = need(tokenCounts, Field.TOKEN_COUNTS);
        int events = tokenTimesLength;
        if (tokenCountsLength < events) {
            throw new IOException(
                    Field.TOKEN_COUNTS.key + " has " + tokenCountsLength + " entries for " + events + " token times");
        }
        long[] absolute;
        if (withoutTokenGaps && events > 1) {
            int tokens = 0;
            for (int i = 0; i < events; i++) {
                tokens += counts[i];
            }
            absolute = new long[] {sentNanos + times[events - 1]};
            counts = new int[] {tokens};
        } else {
            // The line's own array (read for this line alone) becomes the record's: times from the
            // send, made absolute; the scanner's reused ones are copied first.
            absolute = borrowed ? Arrays.copyOf(times, events) : times;
            for (int i = 0; i < events; i++) {
                absolute[i] = sentNanos + absolute[i];
            }
            if (borrowed || counts.length != events) {
                counts = Arrays.copyOf(counts, events);
            }
        }
        tokenTimes = null;
        Outcome result = outcome();
        return new RequestRecord(
                need(index, Field.INDEX),
                requestId,
                need(warmup, Field.WARMUP),
                new RequestTimings(
                        need(intended, Field.INTENDED_SEND_MS),
                        sentNanos,
                        relative(firstByte, sentNanos),
                        relative(firstToken, sentNanos),
                        relative(firstContent, sentNanos),
                        relative(end, sentNanos),
                        absolute),
                counts,
                need(httpStatus, Field.HTTP_STATUS),
                result,
                need(inputTokens, Field.INPUT_TOKENS),
                need(inputFromServer, Field.INPUT_TOKENS_SOURCE),
                need(outputTokens, Field.OUTPUT_TOKENS),
                need(outputFromServer, Field.OUTPUT_TOKENS_SOURCE) ? TokenSource.SERVER : TokenSource.LOCAL_TOKENIZER,
                finishReason,
                need(streamed, Field.STREAMED),
                retryAfter,
                sessionId == null ? null : new SessionTurn(sessionId, turn, parentSessionId),
                serverTimings,
                new TextCounts(inputWords, inputCharacters, outputWords, outputCharacters));
    }

    /**
     * Fills {@code view} with the line's token events, after the checks {@link #record} makes,
     * in its order: a line that is no record is no view either.
     */
    void fill(TokenEventsView view) throws IOException {
        long sentNanos = need(sent, Field.SENT_MS);
        long[] times = need(tokenTimes, Field.TOKEN_TIMES_MS);
        int[] counts = need(tokenCounts, Field.TOKEN_COUNTS);
        if (tokenCountsLength < tokenTimesLength) {
            throw new IOException(Field.TOKEN_COUNTS.key + " has " + tokenCountsLength + " entries for "
                    + tokenTimesLength + " token times");
        }
        boolean succeeded = outcome() instanceof Outcome.Success;
        long lineIndex = need(index, Field.INDEX);
        boolean lineWarmup = need(warmup, Field.WARMUP);
        need(intended, Field.INTENDED_SEND_MS);
        need(httpStatus, Field.HTTP_STATUS);
        need(inputTokens, Field.INPUT_TOKENS);
        need(inputFromServer, Field.INPUT_TOKENS_SOURCE);
        need(outputTokens, Field.OUTPUT_TOKENS);
        need(outputFromServer, Field.OUTPUT_TOKENS_SOURCE);
        need(streamed, Field.STREAMED);
        view.fill(
                lineIndex,
                lineWarmup,
                succeeded,
                sessionId == null ? 0 : turn,
                sentNanos,
                times,
                counts,
                tokenTimesLength);
    }

    private Outcome outcome() throws IOException {
        if (need(outcome, Field.OUTCOME).equals(Outcome.SUCCESS.key())) {
            return Outcome.SUCCESS;
        }
        return new Outcome.Failure(
                FailureClass.fromKey(outcome), timeoutKind == null ? null : TimeoutKind.fromKey(timeoutKind), error);
    }

    private static <T> T need(T value, Field field) throws IOException {
        if (value == null) {
            throw new IOException("no " + field.key);
        }
        return value;
    }

    private static long relative(Long nanos, long from) {
        return nanos == null ? RequestTimings.NEVER : from + nanos;
    }
}
