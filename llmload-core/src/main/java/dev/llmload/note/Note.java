package dev.llmload.note;

/**
 * A finding written into the report's {@code notes}: a stable machine-readable kind and a
 * sentence for people that carries the numbers behind it. The tool's detectors (of the requests,
 * of the telemetry) and the user's {@code --note} all speak it.
 *
 * @param kind    snake_case, e.g. {@code rate_limited}, {@code kv_cache_saturated}, {@code user};
 *                docs/report.md and docs/telemetry.md list them
 * @param message what was seen, with its evidence
 */
public record Note(String kind, String message) {

    /** The kind of a note the user gave with {@code --note}. */
    public static final String USER = "user";

    /** A note the user gave with {@code --note}. */
    public static Note user(String message) {
        return new Note(USER, message);
    }
}
