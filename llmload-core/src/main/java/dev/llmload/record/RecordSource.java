package dev.llmload.record;

import java.io.IOException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Records that can be streamed past a consumer, as often as needed and each time in the same
 * order: a run's list in memory ({@code list::forEach}) or its journals on disk, read a line at a
 * time, so that what derives a report from them needs no more than one record in memory.
 */
@FunctionalInterface
public interface RecordSource {

    void forEach(Consumer<RequestRecord> consumer) throws IOException;

    /**
     * Folds the records' token events into parts: each part is made by {@code newPart} and given
     * a run of the records' {@link TokenEventsView}s in order by {@code add} (a view is valid only
     * until {@code add} returns), and the parts are handed to {@code merge} on the caller's
     * thread in order. A source may cut the records into parts as it likes and fill them on threads
     * of its own (a journal: a part per chunk of lines, on its parsing threads), so what a part
     * holds must merge into the same result however the records were cut. The default: one part,
     * filled on the caller's thread.
     */
    default <P> void fold(Supplier<P> newPart, BiConsumer<P, TokenEventsView> add, Consumer<P> merge)
            throws IOException {
        fold(newPart, add, merge, null);
    }

    /**
     * {@link #fold(Supplier, BiConsumer, Consumer)}, and in the same pass each record, with or
     * without its token gaps ({@link RequestRecord#withoutTokenGaps}), to {@code records} on the
     * caller's thread in order, as {@link #forEach} hands them: one read of a journal for what
     * needs the records and what needs their token events. A part is merged after the records whose
     * token events it holds have been handed over.
     *
     * @param records each record in order; null for none
     */
    default <P> void fold(
            Supplier<P> newPart, BiConsumer<P, TokenEventsView> add, Consumer<P> merge, Consumer<RequestRecord> records)
            throws IOException {
        P part = newPart.get();
        TokenEventsView view = new TokenEventsView();
        forEach(record -> {
            if (records != null) {
                records.accept(record);
            }
            add.accept(part, view.fill(record));
        });
        merge.accept(part);
    }
}
