package dev.llmload.sim.fault;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Pause the whole engine for {@code durationMs} starting {@code atMs} after the server started.
 * Written {@code AT_MS:DURATION_MS}, e.g. {@code 10000:2000}.
 */
public record PauseWindow(long atMs, long durationMs) {

    public PauseWindow {
        if (atMs < 0 || durationMs <= 0) {
            throw new IllegalArgumentException("pause needs atMs >= 0 and durationMs > 0: " + atMs + ":" + durationMs);
        }
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static PauseWindow parse(String text) {
        String[] parts = text.strip().split(":");
        if (parts.length != 2) {
            throw new IllegalArgumentException("bad pause '" + text + "'; expected AT_MS:DURATION_MS, e.g. 10000:2000");
        }
        return new PauseWindow(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
    }

    @JsonValue
    @Override
    public String toString() {
        return atMs + ":" + durationMs;
    }
}
