package dev.llmload.testsupport;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Assumptions;

/**
 * How busy this machine is, for tests that bound a wall-clock time. A bound of "late by at most
 * a few wake-ups" holds on a quiet machine; where more threads want to run than there are cores,
 * every wake-up may wait for a core, so such a bound is widened by {@link #factor()}. Only the
 * late side is widened: "never early" stays exact, so the checks can still fail.
 */
public final class HostLoad {

    /** The most a bound is widened: beyond that a late result is a finding, not the machine. */
    private static final double MAX_FACTOR = 4;

    private HostLoad() {}

    /** The one-minute load average over the number of cores; 0 where the OS does not report it. */
    public static double perCore() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? 0 : load / Runtime.getRuntime().availableProcessors();
    }

    /**
     * 1 while the run queue is no longer than the cores; above that 1 + load per core, at most
     * {@value #MAX_FACTOR}.
     */
    public static double factor() {
        double perCore = perCore();
        return perCore <= 1 ? 1 : Math.min(MAX_FACTOR, 1 + perCore);
    }

    /**
     * A lateness bound measured on a quiet machine, widened for this one's load. Where the load
     * asks for more than {@value #MAX_FACTOR} times the bound, no bound on lateness means anything
     * here: the calling test is skipped (a JUnit assumption), with the load as its reason, rather
     * than failed by the machine or passed by a bound too wide to catch anything.
     */
    public static double slackMs(double quietMs) {
        double perCore = perCore();
        Assumptions.assumeTrue(
                1 + perCore <= MAX_FACTOR,
                () -> "a wall-clock bound is not judged at load per core "
                        + "%.1f: it would need more than ×%.0f slack".formatted(perCore, MAX_FACTOR));
        return quietMs * factor();
    }

    /** For assertion messages: {@code load per core 1.3 (slack ×2.3)}. */
    public static String describe() {
        return "load per core %.1f (slack ×%.1f)".formatted(perCore(), factor());
    }
}
