package dev.llmload.record;

/**
 * What the token events of one request give the statistics that need them (inter-token gaps,
 * tokens per second): its index, whether it is warm-up and whether it succeeded, its session turn, and its token
 * events, each a time (nanoseconds from the run's start) and its tokens. A journal's token pass
 * reads each line into one view reused from line to line ({@link JournalReader#fold}), so that a big
 * journal's hundreds of millions of token times cost no record and no array per line; a record in
 * memory is seen through {@link #of}. Mutable, owned by one thread; what a consumer is handed is
 * valid until it returns.
 */
public final class TokenEventsView {

    private long index;
    private boolean warmup;
    private boolean succeeded;
    private int turn;
    private long[] timesNanos;
    private int[] counts;
    private int events;
    /** Whether the arrays are this view's own, to be written into; a record's are shared, never written. */
    private boolean owned;

    /** A view to be filled, line after line. */
    TokenEventsView() {}

    /** The token events of {@code record}, sharing its arrays. */
    public static TokenEventsView of(RequestRecord record) {
        return new TokenEventsView().fill(record);
    }

    /** This view, now of {@code record} (sharing its arrays). */
    TokenEventsView fill(RequestRecord record) {
        index = record.index();
        warmup = record.warmup();
        succeeded = record.succeeded();
        turn = record.session() == null ? 0 : record.session().turn();
        timesNanos = record.timings().tokenEventNanos();
        counts = record.tokenEventCounts();
        events = timesNanos.length;
        owned = false;
        return this;
    }

    /**
     * This view, now of a journal line's token events: {@code events} times relative to the send
     * at {@code sentNanos} and their counts, copied into arrays of this view's own, reused.
     */
    void fill(
            long index,
            boolean warmup,
            boolean succeeded,
            int turn,
            long sentNanos,
            long[] relativeNanos,
            int[] counts,
            int events) {
        this.index = index;
        this.warmup = warmup;
        this.succeeded = succeeded;
        this.turn = turn;
        this.events = events;
        if (!owned || timesNanos.length < events) {
            timesNanos = new long[Math.max(256, events)];
            this.counts = new int[timesNanos.length];
            owned = true;
        }
        for (int i = 0; i < events; i++) {
            timesNanos[i] = sentNanos + relativeNanos[i];
        }
        System.arraycopy(counts, 0, this.counts, 0, events);
    }

    public long index() {
        return index;
    }

    public boolean warmup() {
        return warmup;
    }

    public boolean succeeded() {
        return succeeded;
    }

    /** The request's turn in its session (1-based); 0 for a request outside sessions. */
    public int turn() {
        return turn;
    }

    /** How many token events the request had. */
    public int events() {
        return events;
    }

    /** The time of event {@code i}, nanoseconds from the run's start. */
    public long timeNanos(int i) {
        return timesNanos[i];
    }

    /** The tokens event {@code i} carried. */
    public int tokens(int i) {
        return counts[i];
    }
}
