package dev.llmload.client;

import java.util.List;

/**
 * What a {@link ClientMonitor} recorded, raw. Times are from {@link #originNanos}, the monitor's
 * start, a {@link System#nanoTime()} reading.
 *
 * @param probePeriodNanos     the lag probes' period
 * @param eventLoops           event loops probed
 * @param eventLoopsRead       of those, loops whose samples came back (a loop that had shut down
 *                             or was stuck at the end did not)
 * @param availableCores       processors the JVM may use (after any CPU affinity or quota)
 * @param lagDueMs             every probe's due instants, pooled over the loops, ms
 * @param lagMicros            how late each due instant was served, µs
 * @param cpuAtNanos           when the process's CPU time was read, ascending
 * @param cpuNanos             the process's CPU time (user + system, all threads) at those reads
 * @param cpuBeforeNanos       the process's CPU time at the origin: start-up, data, connections and
 *                             warm-up; null when the JVM cannot tell
 * @param uptimeBeforeMs       wall time from the JVM's start to the origin
 * @param gcPauses             every stop-the-world collection announced
 * @param collectors           the JVM's collector names, e.g. {@code ZGC Minor Pauses}
 * @param firstSend            the process's CPU time and uptime when the run sent its first request
 *                             (the uncounted test request); null when not known
 */
public record ClientRecording(
        long originNanos,
        long probePeriodNanos,
        int eventLoops,
        int eventLoopsRead,
        int availableCores,
        int[] lagDueMs,
        int[] lagMicros,
        long[] cpuAtNanos,
        long[] cpuNanos,
        Long cpuBeforeNanos,
        long uptimeBeforeMs,
        List<GcPause> gcPauses,
        List<String> collectors,
        ProcessMark firstSend) {

    /**
     * @param startNanos from the origin (negative when it began before), to the JVM's millisecond
     * @param durationMs as the JVM reports it: whole milliseconds, so a sub-millisecond pause is 0
     */
    public record GcPause(long startNanos, long durationMs, String collector) {}
}
