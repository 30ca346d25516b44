package dev.llmload.sim.engine;

import java.time.Duration;

/**
 * A simulated LLM engine: accepts generation requests and emits their tokens over time.
 * {@link #submit}, {@link #cancel}, {@link #pause} and {@link #snapshot} are safe to call from any
 * thread; sinks are called on the engine's own thread.
 */
public interface Engine extends AutoCloseable {

    /** Accepts the request (its sink will then be called) or rejects it at once. */
    Admission submit(GenerationRequest request, TokenSink sink);

    /** The client went away: stop the request and free what it holds. Unknown ids are ignored. */
    void cancel(String requestId);

    /** Stops every step of the engine for {@code duration} (failure injection). */
    void pause(Duration duration);

    EngineSnapshot snapshot();

    @Override
    void close();
}
