package dev.llmload.workload;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Paths of the small files under src/test/resources/dev/llmload/workload. */
public final class Fixtures {

    private Fixtures() {}

    public static Path path(String name) {
        try {
            return Path.of(Fixtures.class.getResource(name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("test resource " + name + " is missing", e);
        }
    }
}
