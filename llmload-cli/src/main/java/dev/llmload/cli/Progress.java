package dev.llmload.cli;

import dev.llmload.record.RequestRecord;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live progress on standard error: a line rewritten in place on a terminal, a plain line every
 * few seconds otherwise (CI logs). Counters are fed from the recorder thread and read by the
 * progress thread ({@code llmload-progress}).
 */
final class Progress {

    private final PrintWriter err;
    private final Long total;
    private final boolean terminal = onTerminal();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile double lastTtftMs = Double.NaN;
    private final long startNanos = System.nanoTime();
    private Thread thread;

    Progress(PrintWriter err, Long total) {
        this.err = err;
        this.total = total;
    }

    /**
     * Whether standard output is a terminal. From JDK 22 on {@code System.console()} exists even
     * when output is redirected, and {@code Console.isTerminal()} (not in the JDK 21 API this is
     * compiled against) tells; on JDK 21 a console exists only on a terminal.
     */
    private static boolean onTerminal() {
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
        done.incrementAndGet();
        if (!record.succeeded()) {
            failed.incrementAndGet();
        } else if (record.timings().firstTokenNanos() >= 0) {
            lastTtftMs = (record.timings().firstTokenNanos() - record.timings().sentNanos()) / 1e6;
        }
    }

    void start() {
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
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        long finished = done.get();
        String line = String.format(Locale.ROOT, "progress: %d%s done, %d failed, %.1f s, %.2f req/s, last TTFT %s",
                finished, total == null ? "" : "/" + total, failed.get(), elapsed, finished / Math.max(elapsed, 1e-9),
                Double.isNaN(lastTtftMs) ? "n/a" : String.format(Locale.ROOT, "%.1f ms", lastTtftMs));
        if (terminal) {
            err.print("\r" + line + (last ? "\n" : ""));
        } else {
            err.println(line);
        }
        err.flush();
    }
}
