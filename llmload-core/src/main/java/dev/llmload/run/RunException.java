package dev.llmload.run;

/** A run that cannot start or go on, for a reason the user can act on; the message is one line. */
public final class RunException extends Exception {

    public RunException(String message) {
        super(message);
    }

    public RunException(String message, Throwable cause) {
        super(message, cause);
    }
}
