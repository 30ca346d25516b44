package dev.llmload.record;

import dev.llmload.record.JournalFormat.Field;

/**
 * Reads a journal line ({@link JournalFormat}) in the one spelling {@link JournalEncoder} gives
 * it, straight from its bytes: no whitespace, numbers as plain integers or milliseconds with at most three decimals, strings of
 * printable ASCII without escapes, and only the fields the writer writes (server timings aside).
 * Anything else (a line edited by hand, an escaped or non-ASCII string, server timings, a number
 * in another form) is not read here at all but left to {@link JournalDecoder}, so a line reads the same
 * either way. A big journal's report reads hundreds of millions of token times; this is the fast
 * way to them. Pure; one instance per line.
 */
final class JournalLineScanner {

    /** Thrown, without a stack, when the line is not in the writer's form; the line then goes to Jackson. */
    private static final RuntimeException OTHER_FORM =
            new RuntimeException("not in the writer's form", null, false, false) {};

    private final byte[] b;
    private final int end;
    /** Keep of the token events only their last time and their tokens' sum, as {@link RequestRecord#withoutTokenGaps}. */
    private final boolean lastEventOnly;
    /** Leave the token events in the {@link Scratch} arrays, for a {@link TokenEventsView} to copy. */
    private final boolean borrow;
    /** The entries of the array {@link #nanosArray} or {@link #intArray} read last. */
    private int arrayLength;

    private int i;

    private final Scratch scratch;

    private JournalLineScanner(
            byte[] bytes, int from, int end, boolean lastEventOnly, boolean borrow, Scratch scratch) {
        this.b = bytes;
        this.i = from;
        this.end = end;
        this.lastEventOnly = lastEventOnly;
        this.borrow = borrow;
        this.scratch = scratch;
    }

    /**
     * Arrays the token events are read into before each is copied to its own size, reused from
     * line to line by one thread: a big journal's report reads a billion token times, and growing
     * an array for each line made most of its garbage.
     */
    static final class Scratch {
        private long[] times = new long[256];
        private int[] counts = new int[256];
        /** The words read so far ({@link #word}), their bytes beside them; a few dozen at most are kept. */
        private final String[] words = new String[32];

        private final byte[][] wordBytes = new byte[32][];
        private int wordCount;

        private String word(byte[] bytes, int start, int length) {
            for (int k = 0; k < wordCount; k++) {
                byte[] known = wordBytes[k];
                if (java.util.Arrays.equals(known, 0, known.length, bytes, start, start + length)) {
                    return words[k];
                }
            }
            String word = new String(bytes, start, length, java.nio.charset.StandardCharsets.ISO_8859_1).intern();
            if (wordCount < words.length) {
                words[wordCount] = word;
                wordBytes[wordCount++] = java.util.Arrays.copyOfRange(bytes, start, start + length);
            }
            return word;
        }
    }

    /**
     * The fields of the line {@code bytes[from, from + length)}; null when it is not in the writer's form.
     *
     * @param lastEventOnly read the token events as {@link RequestRecord#withoutTokenGaps} keeps
     *                      them (the last time, all the tokens), without building their arrays
     * @param borrow        leave the token events in {@code scratch}'s arrays ({@link JournalLine#borrowed}),
     *                      valid until the next line: a token pass copies them into its view
     */
    static JournalLine scan(
            byte[] bytes, int from, int length, boolean lastEventOnly, boolean borrow, Scratch scratch) {
        JournalLine line = scanFrom(bytes, from, from + length, lastEventOnly, borrow, scratch);
        return line != null && line.scannedEnd == from + length ? line : null;
    }

    /**
     * The fields of the object that starts at {@code from} and ends by {@code limit}, as {@link #scan}
     * reads them, and where its bytes end ({@link JournalLine#scannedEnd}); null when it is not in
     * the writer's form. What follows the object is the caller's to check: reading a journal, the
     * end of its line, so that the line's bytes are walked once.
     */
    static JournalLine scanFrom(
            byte[] bytes, int from, int limit, boolean lastEventOnly, boolean borrow, Scratch scratch) {
        try {
            return new JournalLineScanner(bytes, from, limit, lastEventOnly, borrow, scratch).line();
        } catch (RuntimeException e) {
            if (e == OTHER_FORM || e instanceof ArrayIndexOutOfBoundsException) {
                return null;
            }
            throw e;
        }
    }

    private JournalLine line() {
        JournalLine l = new JournalLine();
        l.borrowed = borrow && !lastEventOnly;
        expect('{');
        int next = 0;
        while (true) {
            Field field = name(next);
            next = field.ordinal() + 1;
            expect(':');
            switch (field) {
                case INDEX -> l.index = integer();
                case REQUEST_ID -> l.requestId = string();
                case WARMUP -> l.warmup = bool();
                case SESSION_ID -> l.sessionId = isNull() ? null : integer();
                case TURN -> l.turn = isNull() ? 0 : smallInteger();
                case PARENT_SESSION_ID -> l.parentSessionId = isNull() ? null : integer();
                case OUTCOME -> l.outcome = word();
                case ERROR -> l.error = string();
                case TIMEOUT_KIND -> l.timeoutKind = string();
                case HTTP_STATUS -> l.httpStatus = smallInteger();
                case STREAMED -> l.streamed = bool();
                case INPUT_TOKENS -> l.inputTokens = smallInteger();
                case INPUT_TOKENS_SOURCE -> l.inputFromServer = JournalFormat.fromServer(word());
                case OUTPUT_TOKENS -> l.outputTokens = smallInteger();
                case OUTPUT_TOKENS_SOURCE -> l.outputFromServer = JournalFormat.fromServer(word());
                case FINISH_REASON -> l.finishReason = word();
                case RETRY_AFTER -> l.retryAfter = string();
                case INTENDED_SEND_MS -> l.intended = nanos();
                case SENT_MS -> l.sent = nanos();
                case FIRST_BYTE_MS -> l.firstByte = nanos();
                case TTFT_MS -> l.firstToken = nanos();
                case TTFC_MS -> l.firstContent = nanos();
                case E2E_LATENCY_MS -> nanos();
                case END_MS -> l.end = nanos();
                case SENT_EPOCH_NS, FIRST_BYTE_EPOCH_NS, END_EPOCH_NS -> skipInteger();
                case TOKEN_TIMES_MS -> {
                    l.tokenTimes = nanosArray();
                    l.tokenTimesLength = arrayLength;
                }
                case TOKEN_COUNTS -> {
                    l.tokenCounts = intArray();
                    l.tokenCountsLength = arrayLength;
                }
                case COUNTS_PENDING -> l.countsPending = bool();
                case INPUT_WORDS -> l.inputWords = count();
                case INPUT_CHARACTERS -> l.inputCharacters = count();
                case OUTPUT_WORDS -> l.outputWords = count();
                case OUTPUT_CHARACTERS -> l.outputCharacters = count();
                // The server's timings are Jackson's.
                case SERVER_TIMINGS -> throw OTHER_FORM;
            }
            byte c = b[i++];
            if (c == '}') {
                break;
            }
            if (c != ',') {
                throw OTHER_FORM;
            }
        }
        if (i > end) {
            throw OTHER_FORM;
        }
        l.scannedEnd = i;
        return l;
    }

    private void expect(char c) {
        if (b[i++] != c) {
            throw OTHER_FORM;
        }
    }

    /** The field whose name is at the cursor, trying the one at {@code guess} (the writer's next) first. */
    private Field name(int guess) {
        expect('"');
        int start = i;
        while (b[i] != '"') {
            if (b[i] == '\\') {
                throw OTHER_FORM;
            }
            i++;
        }
        int length = i - start;
        i++;
        // From the guess on, then from the start: a field the writer leaves out (the server's
        // timings, the pending mark) costs the next one a comparison or two, not a walk from the first.
        int fields = Field.count();
        for (int n = 0; n < fields; n++) {
            Field field = Field.at((guess + n) % fields);
            if (matches(field.keyBytes, start, length)) {
                return field;
            }
        }
        throw OTHER_FORM;
    }

    private boolean matches(byte[] name, int start, int length) {
        return java.util.Arrays.equals(name, 0, name.length, b, start, start + length);
    }

    private boolean isNull() {
        if (b[i] == 'n') {
            literal("null");
            return true;
        }
        return false;
    }

    private void literal(String word) {
        for (int k = 0; k < word.length(); k++) {
            expect(word.charAt(k));
        }
    }

    private boolean bool() {
        if (b[i] == 't') {
            literal("true");
            return true;
        }
        literal("false");
        return false;
    }

    /** A string of printable ASCII without escapes, or null. */
    private String string() {
        return string(false);
    }

    /**
     * A string of a few distinct values over the journal (an outcome, a token source, a finish
     * reason), as {@link #string()} reads it: the one String the thread made for the same bytes,
     * made (and interned) at its first sight, so that millions of lines make none.
     */
    private String word() {
        return string(true);
    }

    private String string(boolean word) {
        if (isNull()) {
            return null;
        }
        expect('"');
        int start = i;
        while (true) {
            byte c = b[i];
            if (c == '"') {
                break;
            }
            if (c < 0x20 || c == '\\' || c == 0x7f) {
                // Negative: a byte of a multi-byte character; those, escapes and controls are Jackson's.
                throw OTHER_FORM;
            }
            i++;
        }
        String text = word
                ? scratch.word(b, start, i - start)
                : new String(b, start, i - start, java.nio.charset.StandardCharsets.ISO_8859_1);
        i++;
        return text;
    }

    /** A JSON integer of at most 18 digits. */
    private long integer() {
        boolean negative = b[i] == '-';
        if (negative) {
            i++;
        }
        int start = i;
        long value = 0;
        while (b[i] >= '0' && b[i] <= '9') {
            value = value * 10 + (b[i++] - '0');
        }
        int digits = i - start;
        if (digits == 0
                || digits > 18
                || (digits > 1 && b[start] == '0')
                || b[i] == '.'
                || b[i] == 'e'
                || b[i] == 'E') {
            throw OTHER_FORM;
        }
        return negative ? -value : value;
    }

    /** A JSON integer of any length, or null, passed over: a field written for the reader of the file. */
    private void skipInteger() {
        if (isNull()) {
            return;
        }
        if (b[i] == '-') {
            i++;
        }
        int start = i;
        while (b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        if (i == start || b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
            throw OTHER_FORM;
        }
    }

    /** A count of {@link TextCounts}, or {@link TextCounts#UNKNOWN} for null. */
    private int count() {
        return isNull() ? TextCounts.UNKNOWN : smallInteger();
    }

    private int smallInteger() {
        long value = integer();
        if (value < -999_999_999 || value > 999_999_999) {
            throw OTHER_FORM;
        }
        return (int) value;
    }

    /** Milliseconds with one to three decimals as nanoseconds at microsecond precision, or null. */
    private Long nanos() {
        return isNull() ? null : micros() * 1000;
    }

    /** {@code [-]d…d.d[d[d]]}, at most 12 digits before the point, in microseconds: what rounding the double gives. */
    private long micros() {
        // The cursor in a local, not the field, while the digits are read: a big journal has
        // hundreds of millions of these.
        byte[] b = this.b;
        int i = this.i;
        boolean negative = b[i] == '-';
        if (negative) {
            i++;
        }
        int start = i;
        long whole = 0;
        byte c;
        while ((c = b[i]) >= '0' && c <= '9') {
            whole = whole * 10 + (c - '0');
            i++;
        }
        int digits = i - start;
        if (digits == 0 || digits > 12 || (digits > 1 && b[start] == '0') || c != '.') {
            throw OTHER_FORM;
        }
        i++;
        int decimalsStart = i;
        long fraction = 0;
        while ((c = b[i]) >= '0' && c <= '9') {
            fraction = fraction * 10 + (c - '0');
            i++;
        }
        int decimals = i - decimalsStart;
        if (decimals < 1 || decimals > 3 || c == 'e' || c == 'E') {
            throw OTHER_FORM;
        }
        this.i = i;
        long micros = whole * 1000 + JournalFormat.scaled(fraction, decimals);
        return negative ? -micros : micros;
    }

    /** Opens an array: false for an empty one (read whole), true when an element follows. */
    private boolean openArray() {
        expect('[');
        if (b[i] == ']') {
            i++;
            return false;
        }
        return true;
    }

    /** After an element: true past a comma (another follows), false past the array's end. */
    private boolean nextElement() {
        byte c = b[i++];
        if (c == ',') {
            return true;
        }
        if (c == ']') {
            return false;
        }
        throw OTHER_FORM;
    }

    private long[] nanosArray() {
        if (lastEventOnly) {
            return lastNanos();
        }
        long[] values = scratch.times;
        int n = 0;
        if (openArray()) {
            do {
                if (n == values.length) {
                    values = java.util.Arrays.copyOf(values, 2 * n);
                    scratch.times = values;
                }
                values[n++] = micros() * 1000;
            } while (nextElement());
        }
        arrayLength = n;
        return borrow ? values : java.util.Arrays.copyOf(values, n);
    }

    private int[] intArray() {
        if (lastEventOnly) {
            return countsSum();
        }
        int[] values = scratch.counts;
        int n = 0;
        if (openArray()) {
            do {
                if (n == values.length) {
                    values = java.util.Arrays.copyOf(values, 2 * n);
                    scratch.counts = values;
                }
                values[n++] = smallInteger();
            } while (nextElement());
        }
        arrayLength = n;
        return borrow ? values : java.util.Arrays.copyOf(values, n);
    }

    /** Events of the token times read so far in {@link #lastEventOnly} mode; -1 before them. */
    private int events = -1;

    /**
     * The last of the token times, alone (none for none); counts them into {@link #events}. Every
     * time is read, so each is checked as it would be, and all but the last are dropped.
     */
    private long[] lastNanos() {
        events = 0;
        long last = 0;
        if (openArray()) {
            do {
                last = micros() * 1000;
                events++;
            } while (nextElement());
        }
        arrayLength = events == 0 ? 0 : 1;
        return events == 0 ? new long[0] : new long[] {last};
    }

    /**
     * The sum of the token counts of the {@link #events} token times, alone (none for none). Counts
     * before the times, or fewer counts than times, are left to Jackson's reading.
     */
    private int[] countsSum() {
        if (events < 0) {
            throw OTHER_FORM;
        }
        int n = 0;
        int sum = 0;
        if (openArray()) {
            do {
                int count = smallInteger();
                if (n < events) {
                    sum += count;
                }
                n++;
            } while (nextElement());
        }
        if (n < events) {
            throw OTHER_FORM;
        }
        arrayLength = events == 0 ? 0 : 1;
        return events == 0 ? new int[0] : new int[] {sum};
    }
}
