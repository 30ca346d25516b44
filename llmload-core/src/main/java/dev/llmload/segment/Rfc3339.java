package dev.llmload.segment;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads RFC 3339 date-times (section 5.6): seconds required, a fraction of up to nine digits, and
 * {@code Z} or a numeric offset; {@code t}, {@code z} and a space as the separator are allowed as
 * the RFC allows them. {@link DateTimeFormatter#ISO_OFFSET_DATE_TIME} reads them once the
 * separators are normalised, but it also takes forms RFC 3339 does not (no seconds), hence the
 * shape is checked first.
 */
final class Rfc3339 {

    private static final Pattern FORM =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");

    private Rfc3339() {}

    /** The instant {@code text} names, or null when it is not an RFC 3339 date-time or a field is out of range. */
    static Instant parse(String text) {
        if (!FORM.matcher(text).matches()) {
            return null;
        }
        String normalised = text.substring(0, 10) + "T" + text.substring(11).toUpperCase(Locale.ROOT);
        try {
            return OffsetDateTime.parse(normalised, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                    .toInstant();
        } catch (DateTimeParseException e) {
            return null; // month 13, second 60 (a leap second, which java.time does not represent), ...
        }
    }
}
