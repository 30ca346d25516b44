package dev.llmload.record;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The journal could not be written (a full disk, a lost mount): the run cannot keep its promise
 * that finished means on disk, so it stops. The file holds {@link #wholeLines} whole lines.
 */
public final class JournalWriteException extends IOException {

    private final Path file;
    private final long wholeLines;

    JournalWriteException(Path file, long wholeLines, IOException cause) {
        super("cannot write " + file + " (" + reason(cause) + ")", cause);
        this.file = file;
        this.wholeLines = wholeLines;
    }

    private static String reason(IOException cause) {
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message.strip();
    }

    public Path file() {
        return file;
    }

    public long wholeLines() {
        return wholeLines;
    }
}
