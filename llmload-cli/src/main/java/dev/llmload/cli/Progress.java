package dev.llmload.cli;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntSupplier;

/**
 * Live progress on standard error: a line rewritten in place on a terminal, a plain line every
 * few seconds otherwise (CI logs). The counters are written only by the recorder thread (through
 * {@link #record}) and read by the progress thread ({@code llmload-progress}), which alone
 * formats and prints; the counters are atomics, so neither thread ever waits on the other, and no
 * event-loop thread touches this class. The in-flight count is asked of the run when a line is
 * printed (the size of the launcher's concurrent in-flight set), not counted per request here.
 */
final class Progress {

    private static final FailureClass[] CLASSES = FailureClass.values();

    private final PrintWriter err;
    private final Long total;
    private final Duration duration;
    private final boolean terminal = onTerminal();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong warmups = new AtomicLong();
    private final AtomicLongArray failedByClass = new AtomicLongArray(CLASSES.length);
    private volatile double lastTtftMs = Double.NaN;
    private final long startNanos = System.nanoTime();
    private IntSupplier inFlight = () -> 0;
    private Thread thread;

    /**
     * @param total    the run's request bound, or null
     * @param duration the run's time bound, or null; with either bound the line carries an ETA
     */
    Progress(PrintWriter err, Long total, Duration duration) {
        this.err = err;
        this.total = total;
        this.duration = duration;
    }

    /**
     * Whether standard output is a terminal. From JDK 22 on {@code System.console()} exists even
     * when output is redirected, and {@code Console.isTerminal()} (not in the JDK 21 API this is
     * compiled against) tells; on JDK 21 a console exists only on a terminal.
     */
    static boolean onTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    void record(RequestRecord record) {
        if (record.warmup()) {
            warmups.incrementAndGet();
        }
        if (record.outcome() instanceof Outcome.Failure failure) {
            failedByClass.incrementAndGet(failure.failureClass().ordinal());
        } else if (record.timings().firstTokenNanos() >= 0) {
            lastTtftMs = (record.timings().firstTokenNanos() - record.timings().sentNanos()) / 1e6;
        }
        // Counted last, so a line never shows more requests done than their classes account for.
        done.incrementAndGet();
    }

    /** The requests recorded so far that were warm-up, left out of the statistics. */
    long warmups() {
        return warmups.get();
    }

    /** @param inFlight the run's requests sent and not yet finished, asked on the progress thread */
    void start(IntSupplier inFlight) {
        this.inFlight = inFlight;
        thread = new Thread(this::loop, "llmload-progress");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        long periodMs = terminal ? 500 : 5_000;
        try {
            while (true) {
                Thread.sleep(periodMs);
                print(false);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void stop() {
        if (thread != null) {
            thread.interrupt();
        }
        if (terminal) {
            print(true);
        }
    }

    private synchronized void print(boolean last) {
        Map<FailureClass, Long> failed = new EnumMap<>(FailureClass.class);
        for (FailureClass c : CLASSES) {
            long n = failedByClass.get(c.ordinal());
            if (n > 0) {
                failed.put(c, n);
            }
        }
        String line = line(
                (System.nanoTime() - startNanos) / 1e9,
                done.get(),
                inFlight.getAsInt(),
                total,
                duration == null ? null : duration.toNanos() / 1e9,
                failed,
                lastTtftMs);
        if (terminal) {
            err.print("\r" + line + (last ? "\n" : ""));
        } else {
            err.println(line);
        }
        err.flush();
    }

    /**
     * The progress line, a pure function of what has been counted. The ETA of a request-bounded
     * run assumes the completion rate so far holds; a time-bounded run ends when its time is up
     * (the sooner of the two when both bound it); an unbounded one has none.
     *
     * @param elapsedS  seconds since the run started
     * @param finished  requests finished, failed ones included
     * @param inFlight  requests sent and not yet finished
     * @param total     the request bound, or null
     * @param durationS the time bound in seconds, or null
     * @param failed    failed requests by class, classes without failures left out
     * @param lastTtftMs TTFT of the last successful request, NaN before the first
     */
    static String line(
            double elapsedS,
            long finished,
            int inFlight,
            Long total,
            Double durationS,
            Map<FailureClass, Long> failed,
            double lastTtftMs) {
        double rate = finished / Math.max(elapsedS, 1e-9);
        long failures = failed.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder errors = new StringBuilder();
        for (Map.Entry<FailureClass, Long> e : failed.entrySet()) {
            errors.append(errors.isEmpty() ? " (" : ", ")
                    .append(e.getKey().key())
                    .append(' ')
                    .append(e.getValue());
        }
        if (!errors.isEmpty()) {
            errors.append(')');
        }
        Double etaS = null;
        if (total != null && finished > 0) {
            etaS = Math.max(0, total - finished) / rate;
        }
        if (durationS != null) {
            double left = Math.max(0, durationS - elapsedS);
            etaS = etaS == null ? left : Math.min(etaS, left);
        }
        return String.format(
                Locale.ROOT,
                "progress: %d%s done, %d in flight, %d failed%s, %.1f s, %.2f req/s, last TTFT %s%s",
                finished,
                total == null ? "" : "/" + total,
                inFlight,
                failures,
                errors,
                elapsedS,
                rate,
                Double.isNaN(lastTtftMs) ? "n/a" : String.format(Locale.ROOT, "%.1f ms", lastTtftMs),
                etaS == null ? "" : String.format(Locale.ROOT, ", ETA %.0f s", etaS));
    }
}
