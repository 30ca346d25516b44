package dev.llmload.cli;

/** A command line or config that makes no sense; reported as one line with exit code 2. */
final class UsageException extends RuntimeException {

    UsageException(String message) {
        super(message);
    }
}
