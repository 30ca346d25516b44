package dev.llmload.workload;

import java.nio.file.Path;

/**
 * Bad workload data: a file that cannot be read, an entry that cannot be used, or synthetic
 * prompts that the tokenizer cannot make. The message is one line for the user and names the
 * file, the 1-based line where known, and what is wrong, e.g.
 * {@code data.jsonl:17: not valid JSON (Unexpected character ...)}.
 */
public final class DatasetException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatasetException(String message) {
        super(message);
    }

    public DatasetException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code file:line: what}. */
    public static DatasetException at(Path file, long line, String what) {
        return new DatasetException(file + ":" + line + ": " + what);
    }

    /** {@code file: what}, for problems of the whole file. */
    public static DatasetException in(Path file, String what) {
        return new DatasetException(file + ": " + what);
    }
}
