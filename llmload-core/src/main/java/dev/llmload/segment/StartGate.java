package dev.llmload.segment;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits until a wall-clock instant, so that the segments of a run on different hosts start their
 * monotonic clocks together, and says how well this host hit it.
 *
 * <p>The wall clock (which NTP or chrony keep near true time) says when; the monotonic clock
 * ({@link System#nanoTime()}) is what the run measures with. The gate converts the instant to a
 * {@code nanoTime} deadline, parks until shortly before it, spins the last {@value #SPIN_NANOS} ns
 * (parking is only accurate to tens of microseconds), and then returns that deadline as the run's
 * origin. While more than a second is left it converts again after each second of parking, so a
 * clock that the time daemon slews or steps during a long wait is followed.
 *
 * <p>Blocks the calling thread (the run's own thread before it sends anything, never an event
 * loop) and keeps no state.
 */
public final class StartGate {

    /** Parking is accurate to tens of microseconds; the last stretch before the start is spun. */
    static final long SPIN_NANOS = 100_000;

    /** While more than this is left, the deadline is converted again from a fresh clock reading. */
    private static final long REANCHOR_NANOS = 1_000_000_000L;

    private StartGate() {}

    /**
     * How the start went on this host.
     *
     * @param target          the shared instant asked for
     * @param originNanos     the {@link System#nanoTime()} reading the run measures from: the deadline,
     *                        or the moment the gate was called if the target had already passed
     * @param originWallClock the wall-clock instant of {@code originNanos} as this host's clock saw it,
     *                        read right after the start
     * @param wakeLateNanos   how long after {@code originNanos} the gate returned
     */
    public record Start(Instant target, long originNanos, Instant originWallClock, long wakeLateNanos) {

        /** originWallClock − target: positive when this host started late by its own clock. */
        public long errorNanos() {
            return Duration.between(target, originWallClock).toNanos();
        }
    }

    /**
     * The {@code nanoTime} at which the wall clock will read {@code target}, given that it read
     * {@code now} when {@code nanoTime} read {@code nowNanos}. In the past when target is.
     *
     * @throws IllegalArgumentException when target is further than about 292 years from now
     */
    public static long startNanos(Instant target, Instant now, long nowNanos) {
        try {
            return Math.addExact(nowNanos, Duration.between(now, target).toNanos());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("start instant " + target + " is too far from now (" + now + ")");
        }
    }

    /**
     * Waits until the wall clock reads {@code target}, or returns at once if it already has.
     *
     * @throws InterruptedException if the thread is interrupted while it waits (the run was cancelled)
     */
    public static Start await(Instant target) throws InterruptedException {
        Anchor anchor = Anchor.read();
        long deadline = startNanos(target, anchor.wallClock(), anchor.nanos());
        long remaining = deadline - System.nanoTime();
        while (remaining > REANCHOR_NANOS) {
            park(Math.min(remaining - REANCHOR_NANOS / 2, REANCHOR_NANOS));
            anchor = Anchor.read();
            deadline = startNanos(target, anchor.wallClock(), anchor.nanos());
            remaining = deadline - System.nanoTime();
        }
        long origin;
        if (remaining <= 0) {
            origin = System.nanoTime();
        } else {
            origin = deadline;
            while (origin - System.nanoTime() > SPIN_NANOS) {
                park(origin - System.nanoTime() - SPIN_NANOS);
            }
            while (System.nanoTime() - origin < 0) {
                Thread.onSpinWait();
            }
        }
        long woke = System.nanoTime();
        return new Start(target, origin, wallClockAt(origin), woke - origin);
    }

    /**
     * The wall-clock instant of {@code nanos}, a {@link System#nanoTime} reading: a fresh {@link
     * Anchor} moved back (or on) by the monotonic time between them.
     */
    public static Instant wallClockAt(long nanos) {
        Anchor anchor = Anchor.read();
        return anchor.wallClock().minusNanos(anchor.nanos() - nanos);
    }

    private static void park(long nanos) throws InterruptedException {
        LockSupport.parkNanos(nanos);
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting for the start instant");
        }
    }

    /**
     * A wall-clock reading paired with the {@code nanoTime} at which it was taken: the midpoint of
     * two {@code nanoTime} reads around it, from the tightest of three tries (a try that the
     * scheduler interrupts has a wide gap).
     */
    private record Anchor(Instant wallClock, long nanos) {
        static Anchor read() {
            Anchor best = null;
            long bestGap = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                long before = System.nanoTime();
                Instant wallClock = Instant.now();
                long after = System.nanoTime();
                if (after - before < bestGap) {
                    bestGap = after - before;
                    best = new Anchor(wallClock, before + bestGap / 2);
                }
            }
            return best;
        }
    }
}
