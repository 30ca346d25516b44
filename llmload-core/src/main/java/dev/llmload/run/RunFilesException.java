package dev.llmload.run;

import java.io.IOException;

/**
 * The run's files could not be written (a full disk, a file size limit): the run stopped at once,
 * every whole line already in {@code requests.jsonl} stays, and {@code llmload report} writes the
 * report from them once there is room. The message is one line that names the file and the
 * operating system's reason.
 */
public final class RunFilesException extends IOException {

    public RunFilesException(String message, Throwable cause) {
        super(message, cause);
    }
}
