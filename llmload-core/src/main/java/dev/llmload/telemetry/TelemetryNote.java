package dev.llmload.telemetry;

/**
 * A finding the tool writes into the report's {@code notes}: a stable machine-readable kind and
 * a sentence for people that carries the numbers behind it.
 *
 * @param kind    snake_case, e.g. {@code kv_cache_saturated}; see docs/telemetry.md for the list
 * @param message what was seen, with its evidence
 */
public record TelemetryNote(String kind, String message) {}
