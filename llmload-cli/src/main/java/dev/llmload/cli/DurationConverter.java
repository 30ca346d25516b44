package dev.llmload.cli;

import dev.llmload.config.Durations;
import java.time.Duration;
import picocli.CommandLine;

/** Reads a duration option ({@code 30s}, {@code 5m}, ...) so that a bad one is a one-line usage error. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
