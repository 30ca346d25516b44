package dev.llmload.cli;

import dev.llmload.live.LiveMetrics;
import dev.llmload.live.LiveSnapshot;
import dev.llmload.record.FailureClass;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The live view on a terminal: a block of lines redrawn in place once a second from the run's
 * {@link LiveSnapshot} (docs/live.md), instead of the progress line. It is a listener of
 * {@link LiveMetrics} and runs on that class's thread, {@code llmload-live}, which alone formats
 * and prints; it holds no state but how many lines it drew last, owned by that thread. Every
 * figure comes from the snapshot, none from a server's text, so nothing here can carry a
 * server's escape sequences to the terminal.
 */
final class LiveView {

    /** Moves the cursor to the start of the line {@code n} lines up. */
    private static final String UP = "\033[%dF";
    /** Clears the line the cursor is on. */
    private static final String CLEAR_LINE = "\033[2K";

    private final PrintWriter err;
    private final Long total;
    private int drawn;

    /** @param total the run's request bound, or null */
    LiveView(PrintWriter err, Long total) {
        this.err = err;
        this.total = total;
    }

    /** Draws {@code snapshot} over the previous one; on {@code llmload-live}. */
    void draw(LiveSnapshot snapshot) {
        List<String> lines = lines(snapshot, total);
        StringBuilder out = new StringBuilder();
        if (drawn > 0) {
            out.append(String.format(Locale.ROOT, UP, drawn));
        }
        for (String line : lines) {
            out.append(CLEAR_LINE).append(line).append('\n');
        }
        drawn = lines.size();
        err.print(out);
        err.flush();
    }

    /** The view's lines, a pure function of the snapshot. */
    static List<String> lines(LiveSnapshot s, Long total) {
        LiveSnapshot.Window w = s.window();
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "llmload live  %.0f s%s  (rates and percentiles over the last %d s)",
                s.elapsedNanos() / 1e9,
                s.ended() ? ", done" : "",
                w.seconds()));
        lines.add(String.format(
                Locale.ROOT,
                "requests  sent %d  in flight %d  finished %d%s  failed %d%s%s",
                s.sent(),
                s.inFlight(),
                s.finishedTotal(),
                total == null ? "" : "/" + total,
                s.failedTotal(),
                failures(s.failed()),
                s.warmups() > 0 ? "  (warm-up " + s.warmups() + ")" : ""));
        lines.add(String.format(
                Locale.ROOT,
                "rate      offered %s  sent %.1f/s  finished %.1f/s",
                Double.isNaN(w.offeredPerSecond())
                        ? "- (closed loop)"
                        : String.format(Locale.ROOT, "%.1f/s", w.offeredPerSecond()),
                w.sentPerSecond(),
                w.finishedPerSecond()));
        lines.add("TTFT      " + quantiles(w.ttft()));
        lines.add("ITL       " + quantiles(w.itl()));
        lines.add("E2E       " + quantiles(w.e2e()));
        lines.add(String.format(Locale.ROOT, "tokens    output %.1f tok/s", w.outputTokensPerSecond()));
        lines.add(String.format(
                Locale.ROOT,
                "client    event-loop lag max %s (last s)  %s (window)",
                ms(s.loopLagMaxNanos() / 1e6),
                ms(w.loopLagMaxNanos() / 1e6)));
        lines.add("server    " + server(s.server()));
        return lines;
    }

    private static String failures(Map<FailureClass, Long> failed) {
        StringBuilder out = new StringBuilder();
        for (FailureClass c : FailureClass.values()) {
            long n = failed.getOrDefault(c, 0L);
            if (n > 0) {
                out.append(out.isEmpty() ? " (" : ", ")
                        .append(c.key())
                        .append(' ')
                        .append(n);
            }
        }
        return out.isEmpty() ? "" : out.append(')').toString();
    }

    private static String quantiles(LiveSnapshot.Quantiles q) {
        return q == null
                ? "- (none finished in the window)"
                : "p50 " + ms(q.p50Ms()) + "  p99 " + ms(q.p99Ms()) + "  (" + q.count() + ")";
    }

    /** Milliseconds to about three significant figures, never in exponent form. */
    static String ms(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f ms" : value >= 10 ? "%.1f ms" : "%.2f ms", value);
    }

    private static String server(LiveSnapshot.Server server) {
        if (server.ageNanos() < 0) {
            return "- (no scrape of the server's metrics yet; see --server-metrics)";
        }
        List<String> parts = new ArrayList<>();
        if (server.kvCacheUsage() != null) {
            parts.add(String.format(Locale.ROOT, "KV cache %.1f%%", server.kvCacheUsage() * 100));
        }
        if (server.requestsWaiting() != null) {
            parts.add(String.format(Locale.ROOT, "waiting %.0f", server.requestsWaiting()));
        }
        if (server.requestsRunning() != null) {
            parts.add(String.format(Locale.ROOT, "running %.0f", server.requestsRunning()));
        }
        if (parts.isEmpty()) {
            parts.add("neither KV cache use nor a queue exposed");
        }
        return String.join("  ", parts) + String.format(Locale.ROOT, "  (scraped %.1f s ago)", server.ageNanos() / 1e9);
    }
}
