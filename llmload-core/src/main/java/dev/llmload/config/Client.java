package dev.llmload.config;

import dev.llmload.segment.Segment;
import dev.llmload.segment.StartAt;
import java.time.Instant;

/**
 * The load generator's own part: its resources, and for a run spread over hosts which segment it
 * sends and when it starts (docs/distributed.md).
 *
 * @param ioThreads client event loop threads
 * @param segment   the part of the run this host sends; null for the whole run
 * @param startAt   the wall-clock instant at which every segment starts its clock, as written
 *                  ({@code --start-at}); null to start when ready
 * @param startInstant {@code startAt} resolved, read once when the configuration is made (a
 *                  relative one against {@code LLMLOAD_START_BASE}); null without {@code startAt}
 */
public record Client(int ioThreads, Segment segment, String startAt, Instant startInstant) {

    public Client {
        if (ioThreads < 1) {
            throw new ConfigException("--io-threads must be at least 1");
        }
        if ((startAt == null) != (startInstant == null)) {
            throw new ConfigException("a start instant needs its --start-at text");
        }
    }

    public Client(int ioThreads) {
        this(ioThreads, null, null, null);
    }

    /** The same client starting at {@code startInstant}, {@code startAt} resolved. */
    public Client withStart(String startAt, Instant startInstant) {
        return new Client(ioThreads, segment, startAt, startInstant);
    }

    /** The number of CPU cores, at most 4. */
    public static Client defaults() {
        return new Client(Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Reads {@code --segment} (I/N, or auto/N with I from {@code JOB_COMPLETION_INDEX}) and
     * {@code --start-at} (RFC 3339, or +DELAY after {@code LLMLOAD_START_BASE}) from the environment
     * given.
     */
    public static Client of(int ioThreads, String segment, String startAt, java.util.Map<String, String> env) {
        Segment part = segment == null ? null : ConfigException.parsing("--segment", () -> Segment.parse(segment, env));
        Instant start = startAt == null
                ? null
                : ConfigException.parsing(
                        "--start-at",
                        () -> StartAt.parse(startAt, Durations::parse).resolve(StartAt.base(env)));
        return new Client(ioThreads, part, startAt, start);
    }
}
