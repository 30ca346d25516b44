package dev.llmload.workload.source;

import dev.llmload.workload.ContentHash;
import dev.llmload.workload.DatasetException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;

/**
 * One pass over a line-oriented workload file (JSON Lines, CSV) that both checks its lines and
 * names its content: every non-blank line goes to a visitor with its number (from 1, blank lines
 * counted), and the SHA-256 of the file's bytes, blank lines included, comes back for the report's
 * record of what was sent. Reading once matters for traces of millions of lines.
 */
public final class HashedLines {

    /** Takes one non-blank line; throws {@link DatasetException} naming the line to stop the pass. */
    @FunctionalInterface
    public interface Visitor {
        void line(long number, String text);
    }

    private HashedLines() {}

    /**
     * Visits every non-blank line of {@code file} in order.
     *
     * @return the SHA-256 of the whole file, in hex
     * @throws DatasetException when the file cannot be read, or as the visitor throws it
     */
    public static String read(Path file, Visitor visitor) {
        MessageDigest digest = ContentHash.sha256();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new DigestInputStream(Files.newInputStream(file), digest), StandardCharsets.UTF_8))) {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    visitor.line(number, line);
                }
            }
        } catch (IOException e) {
            throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
        }
        return ContentHash.hex(digest);
    }
}
