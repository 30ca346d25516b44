package dev.llmload.protocol;

/**
 * A message that is not what the dialect promises (not JSON, not the expected shape): the request
 * fails with class {@code protocol}, with this one-line message.
 */
public final class MalformedMessageException extends RuntimeException {

    public MalformedMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
