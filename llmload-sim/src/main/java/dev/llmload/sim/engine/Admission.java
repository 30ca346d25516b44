package dev.llmload.sim.engine;

import java.time.Duration;

/** The engine's answer to {@link Engine#submit}: accepted, or rejected with an HTTP-shaped reason. */
public sealed interface Admission {

    Accepted ACCEPTED = new Accepted();

    record Accepted() implements Admission {}

    /**
     * @param httpStatus 400 for a request longer than the model's context, 429 for a full queue
     * @param errorType  OpenAI error {@code type}, e.g. {@code BadRequestError}
     * @param retryAfter sent as {@code Retry-After} when not null
     */
    record Rejected(int httpStatus, String errorType, String message, Duration retryAfter) implements Admission {}
}
