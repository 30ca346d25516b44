package dev.llmload.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The process's limit on open files ({@code ulimit -n}), against which a load's connections are
 * checked before any is opened: past it every further connection fails as if the server refused
 * it, and the server would be blamed for the client's limit. Read from {@code /proc/self/limits}
 * (Linux), where the JVM has already raised the soft limit to the hard one; elsewhere nothing is
 * checked.
 */
final class OpenFileLimit {

    /** Files the run needs besides its connections: journal, report files, telemetry, a probe's sockets. */
    static final int RESERVE_FILES = 64;

    private static final Path LIMITS = Path.of("/proc/self/limits");
    private static final Path OPEN = Path.of("/proc/self/fd");

    private OpenFileLimit() {}

    /**
     * @param connections the most connections the load keeps open at once
     * @param option      the option that asked for them, with its value, as the user wrote it
     * @throws RunException in one line, when they cannot all be open at once
     */
    static void check(long connections, String option) throws RunException {
        OptionalLong limit = read();
        if (limit.isEmpty()) {
            return;
        }
        long open = openNow();
        long needed = connections + open + RESERVE_FILES;
        if (needed > limit.getAsLong()) {
            throw new RunException(option + " keeps " + connections + " connections open, but this process may open only "
                    + limit.getAsLong() + " files (ulimit -n; " + open + " already open, " + RESERVE_FILES
                    + " kept for its own files): raise the limit to at least " + needed + " or ask for fewer");
        }
    }

    /** The soft limit on open files, if this system says. */
    static OptionalLong read() {
        try {
            return Files.isReadable(LIMITS) ? parse(Files.readString(LIMITS)) : OptionalLong.empty();
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /** The soft limit from the text of {@code /proc/self/limits}; empty when unlimited or not there. */
    static OptionalLong parse(String limits) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max open files")) {
                String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                if (fields.length > 0 && fields[0].matches("[0-9]+")) {
                    return OptionalLong.of(Long.parseLong(fields[0]));
                }
            }
        }
        return OptionalLong.empty();
    }

    private static long openNow() {
        try (Stream<Path> open = Files.list(OPEN)) {
            return open.count();
        } catch (IOException e) {
            return 0;
        }
    }
}
