package dev.llmload.analysis;

import dev.llmload.note.Note;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code oom}: measured requests failed with signs of the server running out of memory or
 * KV-cache space: HTTP 507, or an error message that says so. Such failures mean the load (or the
 * prompts' length) exceeds what the server can hold, not that it is slow, and a reader sizing a
 * deployment must see them apart from other errors. The note quotes the first such message.
 * Counted as the records stream past ({@link Count}).
 */
final class OutOfMemoryRule implements NoteRule {

    static final String KIND = "oom";
    /** Messages servers use when memory or KV-cache space runs out (vLLM, SGLang, TGI, PyTorch). */
    static final Pattern MESSAGE =
            Pattern.compile("out of memory|\\boom\\b|kv cache|insufficient memory", Pattern.CASE_INSENSITIVE);

    static final int HTTP_INSUFFICIENT_STORAGE = 507;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        Count count = run.tally().outOfMemory;
        if (count.failed == 0) {
            return Optional.empty();
        }
        String sample = count.sample == null ? "" : "; e.g. \"" + NoteText.truncate(count.sample) + "\"";
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "%d requests failed with signs of the server running out of memory (HTTP 507, or a message naming "
                                + "memory or the KV cache), first at t=%s%s",
                        count.failed,
                        NoteText.seconds(count.firstEndNanos, run.startNanos()),
                        sample)));
    }

    static boolean looksLikeOom(RequestRecord record) {
        if (!(record.outcome() instanceof Outcome.Failure failure)) {
            return false;
        }
        return record.httpStatus() == HTTP_INSUFFICIENT_STORAGE
                || failure.message() != null
                        && MESSAGE.matcher(failure.message()).find();
    }

    /**
     * The measured requests that failed for want of memory: their count, the first end, and the
     * message of the first (by intended send) whose message says so. Bounded; owned by the {@link
     * NoteDetector.Tally}'s thread.
     */
    static final class Count {

        private long failed;
        private long firstEndNanos = Long.MAX_VALUE;
        private String sample;
        private long sampleIntendedNanos = Long.MAX_VALUE;
        private long samplePosition;

        /** @param position the record's place in the run's records, which orders equal intended sends */
        void add(RequestRecord record, long position) {
            if (!looksLikeOom(record)) {
                return;
            }
            failed++;
            firstEndNanos = Math.min(firstEndNanos, record.timings().endNanos());
            String message = ((Outcome.Failure) record.outcome()).message();
            long intended = record.timings().intendedSendNanos();
            if (message != null
                    && MESSAGE.matcher(message).find()
                    && NoteDetector.Tally.earlier(intended, position, sampleIntendedNanos, samplePosition)) {
                sample = message;
                sampleIntendedNanos = intended;
                samplePosition = position;
            }
        }
    }
}
