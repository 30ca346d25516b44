package dev.llmload.cli;

import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Every request in flight holds a connection, and every connection a file descriptor. A run that
 * asks for more in flight than the process may open would fail its connections one by one, and
 * those failures would look like the server's; it is refused up front instead, in one line.
 */
final class OpenFileLimit {

    /** Descriptors the JVM and llmload hold besides the load's connections: jars, the journal, event loops, telemetry. */
    static final int RESERVE = 128;

    private static final Path PROC_LIMITS = Path.of("/proc/self/limits");

    private OpenFileLimit() {}

    /**
     * Why {@code config} cannot run under this process's open-file limit, or null when it can
     * (or the limit cannot be read: not Linux).
     */
    static String refusal(RunConfig config) {
        OptionalLong limit = readLimit(PROC_LIMITS);
        return limit.isPresent() ? refusal(config, limit.getAsLong()) : null;
    }

    static String refusal(RunConfig config, long openFiles) {
        String option;
        int inFlight;
        Integer sessions = config.sessions() == null ? null : config.sessions().maxSessions();
        if (config.load() instanceof Load.Closed closed && closed.profile() == null) {
            option = "--concurrency";
            inFlight = closed.concurrency();
        } else if (config.load().maxConcurrency() != null) {
            option = "--max-concurrency";
            inFlight = config.load().maxConcurrency();
        } else {
            option = null;
            inFlight = 0;
        }
        if (sessions != null && sessions > inFlight) {
            option = "--max-sessions";
            inFlight = sessions;
        }
        long needed = (long) inFlight + RESERVE;
        if (option == null || needed <= openFiles) {
            return null;
        }
        return option + " " + inFlight + " needs about " + needed + " open files (a connection per request in flight),"
                + " but this process may open " + openFiles + " (ulimit -n): raise the limit or lower " + option;
    }

    /** The soft "Max open files" limit of a {@code /proc/PID/limits} file; empty when unreadable or unlimited. */
    static OptionalLong readLimit(Path limitsFile) {
        try {
            return parseLimit(Files.readString(limitsFile));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    static OptionalLong parseLimit(String limits) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max open files")) {
                String[] fields =
                        line.substring("Max open files".length()).trim().split("\\s+");
                return fields.length > 0 && fields[0].matches("[0-9]+")
                        ? OptionalLong.of(Long.parseLong(fields[0]))
                        : OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }
}
