package dev.llmload.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The Linux scheduling classes that llmload's own background threads move into, so that on a core
 * they share with the load's event loops they do not make a loop wait: a loop that waits for the
 * core reads its tokens late, and the timestamps carry that wait as the server's latency
 * (docs/performance.md, "The scrape in the idle scheduling class" and "The recorder in the batch
 * scheduling class").
 *
 * <p>Java has no call for a thread's scheduling class before the foreign-function API (a preview
 * in Java 21), so the thread's id is read from {@code /proc/thread-self} and {@code chrt} (util-linux,
 * present on every common Linux) is run for it. Where either is missing (another system, a bare
 * container) the thread keeps its class and the run goes on unchanged.
 *
 * <p>A thread moved keeps the class until it is moved again ({@link #enter(long)} moves another
 * thread of the process), and the threads and processes it starts meanwhile are born in it (Linux
 * copies the scheduling policy at {@code clone}): so a thread moved first thing, before it starts
 * an event loop, a pool or a child, takes those along.
 *
 * <p>Threads: {@link #enterCurrentThread()} blocks for the child process (a few milliseconds), so
 * it is called by a thread that may block, never by an event loop.
 */
public enum SchedulingClass {

    /**
     * {@code SCHED_IDLE}: runs only when no other thread wants the core, and gives it up at once to
     * one that wakes. For work whose timing does not matter, done a little at a time: the scrapes
     * of the server's metrics (a couple of milliseconds of parsing once a second). On one core at
     * 16 streams the share of late token gaps in the scrape's first 100 ms of each second went
     * from 16–36 % to 7–18 % in five runs of six, as with no scrape at all; {@code nice 19} did
     * about half as well. On a core kept busy by other threads such a thread still gets a small
     * share, so its work is late; kept busy for long (another program, a saturated client), late
     * enough for a scrape to miss its timeout and be recorded as a gap. That is the price of
     * timestamps that do not wait for it.
     */
    IDLE("--idle"),

    /**
     * {@code SCHED_BATCH}: the normal class's share of the CPU, but a thread woken does not take the
     * core from the thread running there; it waits for that thread to sleep, or for the next tick.
     * For work that must keep up but can wait a few milliseconds: the recorder, woken once for
     * every finished request by the event loop that finished it. In the normal class it took the
     * core from that loop at once and journalled the request while the loop waited with tokens
     * to read: the hand-over took the loop 352–389 µs at p90 on one core at 16 streams, against
     * 44–74 µs in this class.
     */
    BATCH("--batch"),

    /**
     * {@code SCHED_OTHER}: Linux's default class, back from one of the above. For a background
     * thread's work outside a run, when there is no load to give way to and its timing does
     * matter: the scrapes before the clock starts and the final one after the last request, which
     * in the idle class wait for whatever else keeps the cores busy, seconds on a busy host.
     * Leaving the idle class takes root, {@code CAP_SYS_NICE} or an {@code RLIMIT_NICE} above 0
     * (Linux's rule for unprivileged threads); without, the thread stays where it is.
     */
    NORMAL("--other");

    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    private static final long CHRT_WAIT_MS = 2_000;

    private final String chrtOption;

    SchedulingClass(String chrtOption) {
        this.chrtOption = chrtOption;
    }

    /** Moves the calling thread into this class; false when it could not be done here. */
    public boolean enterCurrentThread() {
        OptionalLong tid = currentThreadId();
        return tid.isPresent() && enter(tid.getAsLong());
    }

    /** The kernel's id of the calling thread, or empty where {@code /proc/thread-self} is not there. */
    public static OptionalLong currentThreadId() {
        try {
            return threadId(Files.readSymbolicLink(THREAD_SELF).toString());
        } catch (IOException | UnsupportedOperationException e) {
            return OptionalLong.empty();
        }
    }

    /** The thread id in {@code /proc/thread-self}'s target, {@code PID/task/TID}; empty for anything else. */
    static OptionalLong threadId(String link) {
        int slash = link.lastIndexOf('/');
        if (!link.contains("/task/") || slash == link.length() - 1) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(link.substring(slash + 1)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Moves the thread {@code tid} of this process into this class; false when it could not be
     * done here. The {@code chrt} it runs is born in the calling thread's class, so a thread in
     * the normal class moves one out of the idle class without waiting for an idle core.
     */
    public boolean enter(long tid) {
        try {
            Process chrt = new ProcessBuilder("chrt", chrtOption, "-p", "0", Long.toString(tid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!chrt.waitFor(CHRT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                chrt.destroyForcibly();
                return false;
            }
            return chrt.exitValue() == 0;
        } catch (IOException e) {
            return false; // no chrt here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
