package dev.llmload.analysis;

import dev.llmload.note.Note;
import dev.llmload.record.RequestRecord;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code stream_ignored}: a stream was asked for, but succeeded measured requests were answered in
 * one JSON body, so the server ignores {@code "stream"}. Those requests have no TTFT, ITL or TPOT,
 * only E2E latency; without the note a reader would take the missing figures for a tool fault.
 * Counted as the records stream past ({@link Count}).
 */
final class StreamIgnoredRule implements NoteRule {

    static final String KIND = "stream_ignored";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        Count count = run.tally().streamIgnored;
        if (!run.streamRequested() || count.unstreamed == 0) {
            return Optional.empty();
        }
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "%d of %d succeeded requests were answered in one JSON body although a stream was asked for: "
                                + "the server ignores \"stream\", so they have no TTFT, ITL or TPOT, only E2E latency",
                        count.unstreamed,
                        count.succeeded)));
    }

    /** The succeeded measured requests, and those of them answered without a stream. Owned by the {@link NoteDetector.Tally}'s thread. */
    static final class Count {

        private long succeeded;
        private long unstreamed;

        void add(RequestRecord record) {
            if (record.succeeded()) {
                succeeded++;
                if (!record.streamed()) {
                    unstreamed++;
                }
            }
        }
    }
}
