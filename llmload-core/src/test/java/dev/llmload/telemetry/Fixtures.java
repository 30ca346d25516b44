package dev.llmload.telemetry;

import dev.llmload.telemetry.prometheus.PrometheusTextParser;
import dev.llmload.telemetry.prometheus.Scrape;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads the recorded expositions under {@code src/test/resources/telemetry}. */
public final class Fixtures {

    private Fixtures() {}

    public static String text(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/telemetry/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Scrape scrape(String name) {
        return PrometheusTextParser.parse(text(name));
    }
}
