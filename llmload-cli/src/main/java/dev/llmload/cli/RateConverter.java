package dev.llmload.cli;

import java.util.Locale;
import picocli.CommandLine;

/** A request rate in requests per second; {@code inf}, as vLLM writes it, is an infinite rate. */
final class RateConverter implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (text.equals("inf") || text.equals("infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            return Double.valueOf(text);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("expected requests per second or inf, got '" + value + "'");
        }
    }
}
