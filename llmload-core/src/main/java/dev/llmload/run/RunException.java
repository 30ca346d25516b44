package dev.llmload.run;

import dev.llmload.report.RunReport;
import java.util.Optional;

/** A run that cannot start or go on, for a reason the user can act on; the message is one line. */
public final class RunException extends Exception {

    /** The report of a run whose report files could not be written; null otherwise. */
    private final transient RunReport unwritten;

    public RunException(String message) {
        super(message);
        this.unwritten = null;
    }

    public RunException(String message, Throwable cause) {
        this(message, cause, null);
    }

    /**
     * @param unwritten the finished run's report, whose files could not be written: what it says
     *                  needs no disk, so the caller can still show it
     */
    public RunException(String message, Throwable cause, RunReport unwritten) {
        super(message, cause);
        this.unwritten = unwritten;
    }

    /** The finished run's report when only writing its files failed; empty otherwise. */
    public Optional<RunReport> unwrittenReport() {
        return Optional.ofNullable(unwritten);
    }
}
