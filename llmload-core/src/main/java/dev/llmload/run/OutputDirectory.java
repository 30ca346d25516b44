package dev.llmload.run;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Where a run writes: a default name made its own, a given directory checked, never another run's. */
public final class OutputDirectory {

    private OutputDirectory() {}

    /**
     * Creates {@code dir}, or the first of {@code dir-2}, {@code dir-3}, … that does not exist yet,
     * and returns it. Creating is the claim ({@link Files#createDirectory} fails when the name
     * exists), so runs started in the same second each get a directory of their own.
     */
    public static Path claimUnique(Path dir) throws RunException {
        try {
            if (dir.getParent() != null) {
                Files.createDirectories(dir.getParent());
            }
            for (int n = 1; ; n++) {
                Path candidate = n == 1 ? dir : dir.resolveSibling(dir.getFileName() + "-" + n);
                try {
                    return Files.createDirectory(candidate);
                } catch (FileAlreadyExistsException taken) {
                    // Another run (or anything else) has this name: try the next.
                }
            }
        } catch (IOException e) {
            throw new RunException("cannot create the run directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Why the given {@code --output-dir} cannot be used, or null when it can: a file of that name,
     * or a directory holding anything while {@code overwrite} is off.
     */
    public static String refusal(Path dir, boolean overwrite) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return "--output-dir " + dir + " is a file, not a directory";
        }
        if (overwrite || !Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isPresent()
                    ? "--output-dir " + dir + " is not empty; choose another directory or add --overwrite"
                    : null;
        } catch (IOException e) {
            return "--output-dir " + dir + " cannot be read: " + e.getMessage();
        }
    }
}
