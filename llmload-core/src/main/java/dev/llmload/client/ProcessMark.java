package dev.llmload.client;

import java.lang.management.ManagementFactory;

/**
 * How much the process had spent when it reached a point of the run: its CPU time (user + system,
 * every thread, the JIT's and the collector's included) and the JVM's uptime. Taken where the run
 * sends its first request and where the measured load begins.
 *
 * @param cpuNanos the process's CPU time; null when the JVM cannot tell
 * @param uptimeMs wall time since the JVM started
 */
public record ProcessMark(Long cpuNanos, long uptimeMs) {

    /** Now. */
    public static ProcessMark now() {
        long cpu = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : -1;
        return new ProcessMark(
                cpu < 0 ? null : cpu, ManagementFactory.getRuntimeMXBean().getUptime());
    }

    /** The CPU time in seconds, or null. */
    public Double cpuS() {
        return cpuNanos == null ? null : cpuNanos / 1e9;
    }

    public double uptimeS() {
        return uptimeMs / 1000.0;
    }
}
