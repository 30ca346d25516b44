package dev.llmload.bench;

import dev.llmload.analysis.NoteDetector;
import dev.llmload.analysis.RequestTimes;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Heap held per request by what reads a journal for a report (docs/performance.md, "Memory over a
 * long run"): the used heap after full collections with and without the held state, over the
 * number of records. Run it with {@code -XX:+UseSerialGC}, whose {@code System.gc()} is a full
 * collection.
 *
 * <pre>HeldMemory JOURNAL records|columns</pre>
 *
 * {@code records}: every record without its token gaps in a list, as a run and {@code llmload
 * report} held them before; {@code columns}: what the derivation's first pass keeps now
 * ({@link RequestTimes}, the notes' tally and the series' span). Not part of the product.
 */
public final class HeldMemory {

    private HeldMemory() {}

    public static void main(String[] args) throws Exception {
        Path journal = Path.of(args[0]);
        String mode = args[1];
        long before = usedAfterFullCollection();
        Object held;
        long[] count = {0};
        switch (mode) {
            case "records" -> {
                List<RequestRecord> records = new ArrayList<>();
                JournalReader.forEachWithoutTokenGaps(journal, records::add);
                count[0] = records.size();
                held = records;
            }
            case "columns" -> {
                RequestTimes times = new RequestTimes();
                NoteDetector.Tally tally = new NoteDetector.Tally();
                TimeSeries.Span span = new TimeSeries.Span();
                JournalReader.forEachWithoutTokenGaps(journal, record -> {
                    times.add(record);
                    tally.add(record);
                    span.add(record);
                    count[0]++;
                });
                // The sort the analyses share is part of what the derivation holds.
                times.measuredByIntended();
                held = new Object[] {times, tally, span};
            }
            default -> throw new IllegalArgumentException("mode records or columns, not " + mode);
        }
        long after = usedAfterFullCollection();
        Reference.reachabilityFence(held);
        System.out.printf(Locale.ROOT, "%s: %d records, %.1f MiB held, %.0f bytes per record%n", mode, count[0],
                (after - before) / 1048576.0, (double) (after - before) / count[0]);
    }

    private static long usedAfterFullCollection() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
