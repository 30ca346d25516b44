package dev.llmload.segment;

/**
 * What this host's operating system says about its wall clock's synchronisation, recorded with
 * each segment so that a merged report can state the start skew it rests on. Unknown values are
 * null, never guessed.
 *
 * @param source          where the answer came from
 * @param synchronised    whether the clock is synchronised to a time source
 * @param offsetNanos     the clock's estimated offset from true time (positive: ahead), or null
 * @param errorBoundNanos a bound on the clock's error as the source states it, or null
 * @param clocksource     the kernel's clock source ({@code tsc}, {@code kvm-clock}, ...) from
 *                        /sys, or null where it cannot be read
 * @param detail          one line for the report: what the source said, or why nothing did
 */
public record ClockSync(
        Source source,
        Synchronised synchronised,
        Long offsetNanos,
        Long errorBoundNanos,
        String clocksource,
        String detail) {

    /** Where the answer came from. */
    public enum Source {
        /** {@code chronyc tracking}: chrony's estimate of the offset and its bound. */
        CHRONY,
        /** {@code adjtimex --print}: the kernel's own status and maximum error, set by whichever daemon disciplines it. */
        ADJTIMEX,
        /** {@code timedatectl show}: systemd's yes or no, no figures. */
        TIMEDATECTL,
        /** None of them answered. */
        NONE
    }

    /** Whether the clock is synchronised. */
    public enum Synchronised {
        YES,
        NO,
        UNKNOWN
    }
}
