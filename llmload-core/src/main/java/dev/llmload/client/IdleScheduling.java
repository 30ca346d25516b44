package dev.llmload.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Moves threads whose timing does not matter into Linux's idle scheduling class ({@code SCHED_IDLE}),
 * so that on a core they share with the load's event loops they run only when the loops have nothing
 * to do. The threads that scrape the server's metrics are such threads: a scrape is a couple of
 * milliseconds of parsing once a second, and a loop woken by a token while it runs would otherwise
 * wait up to a scheduler slice for the core, which the token's timestamp would carry as the
 * server's latency. Measured on one core at 16 streams, the share of late token gaps that fell in
 * the scrape's first 100 ms of each second went from 16–36 % to 7–18 % in five runs of six, as
 * with no scrape at all; {@code nice 19} did about half as well (docs/performance.md, "The scrape in the idle
 * scheduling class"). On a client with idle cores the scheduler moves such a thread to one of them,
 * so nothing waits; on a saturated one the thread still gets a small share and its work is late,
 * not lost.
 *
 * <p>Java has no call for a thread's scheduling class before the foreign-function API (a preview
 * in Java 21), so the thread's id is read from {@code /proc/thread-self} and {@code chrt --idle -p 0
 * TID} (util-linux, present on every common Linux) is run for it. Where either is missing (another
 * system, a bare container) the threads keep their class and the run goes on unchanged.
 *
 * <p>A thread moved keeps the class for good, and the threads and processes it starts afterwards
 * are born in it (Linux copies the scheduling policy at {@code clone}): so a thread moved first
 * thing, before it starts an event loop or a child, takes those along.
 *
 * <p>Threads: {@link #enterCurrentThread()} blocks for the child process (a few milliseconds), so
 * it is called by a thread that may block, never by an event loop.
 */
public final class IdleScheduling {

    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    private static final long CHRT_WAIT_MS = 2_000;

    private IdleScheduling() {
    }

    /** Moves the calling thread into the idle class; false when it could not be done here. */
    public static boolean enterCurrentThread() {
        OptionalLong tid = currentThreadId();
        return tid.isPresent() && enter(tid.getAsLong());
    }

    /** The kernel's id of the calling thread, or empty where {@code /proc/thread-self} is not there. */
    static OptionalLong currentThreadId() {
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

    private static boolean enter(long tid) {
        try {
            Process chrt = new ProcessBuilder("chrt", "--idle", "-p", "0", Long.toString(tid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!chrt.waitFor(CHRT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                chrt.destroyForcibly();
                return false;
            }
            return chrt.exitValue() == 0;
        } catch (IOException e) {
            return false;   // no chrt here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
