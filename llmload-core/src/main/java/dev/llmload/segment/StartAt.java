package dev.llmload.segment;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The wall-clock instant at which every segment of a run starts its clock ({@code --start-at}):
 * an RFC 3339 instant, or {@code +30s}, a delay after a base instant that the launcher gives every
 * segment alike (in {@link #BASE_ENV}), for launchers that can stamp one shared "now" but not
 * compute a later one.
 */
public sealed interface StartAt {

    /** The variable that holds the base instant of a relative {@code --start-at}, as RFC 3339. */
    String BASE_ENV = "LLMLOAD_START_BASE";

    /** An absolute instant. */
    record At(Instant instant) implements StartAt {
        @Override
        public Instant resolve(Instant base) {
            return instant;
        }
    }

    /** {@code delay} after the base instant. */
    record After(Duration delay) implements StartAt {
        public After {
            if (delay.isNegative()) {
                throw new IllegalArgumentException("a start delay must not be negative: " + delay);
            }
        }

        @Override
        public Instant resolve(Instant base) {
            if (base == null) {
                throw new IllegalArgumentException(
                        "start-at +" + delay.toString().substring(2).toLowerCase(Locale.ROOT)
                                + " is relative to a base instant that every segment shares, and " + BASE_ENV
                                + " is not set: set it to one RFC 3339 instant for all segments, or give an absolute instant");
            }
            return base.plus(delay);
        }
    }

    /** The wall-clock instant to start at; {@code base} is needed by {@link After} only and may otherwise be null. */
    Instant resolve(Instant base);

    /**
     * Reads {@code 2026-12-01T10:00:00Z} (any RFC 3339 date-time: a fraction of a second and a
     * numeric offset are allowed, {@code t}, {@code z} and a space as the separator too) or
     * {@code +DURATION}.
     *
     * @param durations reads the text after {@code +} as llmload reads every duration ({@code 30s}, {@code 2m})
     * @throws IllegalArgumentException with a one-line reason
     */
    static StartAt parse(String text, Function<String, Duration> durations) {
        String trimmed = text.strip();
        if (trimmed.startsWith("+")) {
            Duration delay;
            try {
                delay = durations.apply(trimmed.substring(1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("start-at '" + text + "': " + e.getMessage());
            }
            return new After(delay);
        }
        Instant instant = Rfc3339.parse(trimmed);
        if (instant == null) {
            throw new IllegalArgumentException("start-at '" + text
                    + "' is neither an RFC 3339 instant (e.g. 2026-12-01T10:00:00Z) nor +DELAY (e.g. +30s)");
        }
        return new At(instant);
    }

    /** The base instant in {@code env}, or null when {@link #BASE_ENV} is not set. */
    static Instant base(Map<String, String> env) {
        String value = env.get(BASE_ENV);
        if (value == null || value.isBlank()) {
            return null;
        }
        Instant base = Rfc3339.parse(value.strip());
        if (base == null) {
            throw new IllegalArgumentException(
                    BASE_ENV + "='" + value + "' is not an RFC 3339 instant (e.g. 2026-12-01T10:00:00Z)");
        }
        return base;
    }
}
