package dev.llmload.record;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * Records that can be streamed past a consumer, as often as needed and each time in the same
 * order: a run's list in memory ({@code list::forEach}) or its journals on disk, read a line at a
 * time, so that what derives a report from them needs no more than one record in memory.
 */
@FunctionalInterface
public interface RecordSource {

    void forEach(Consumer<RequestRecord> consumer) throws IOException;
}
