package dev.llmload.cli.console;

import dev.llmload.analysis.LoadStage;
import dev.llmload.analysis.Saturation;
import dev.llmload.analysis.SteadyState;
import dev.llmload.config.Load;
import dev.llmload.config.Sessions;
import dev.llmload.http.ServerText;
import dev.llmload.metrics.Goodput;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.ServerView;
import dev.llmload.metrics.SessionCounts;
import dev.llmload.note.Note;
import dev.llmload.report.Efficiency;
import dev.llmload.report.RunReport;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Summary;
import dev.llmload.telemetry.analysis.TelemetrySummary;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The summary printed at the end of a run, in the label/value layout of {@code vllm bench serve}
 * (labels 40 wide, 50-column rulers). The load conditions and data shape come first, because a
 * throughput without them means nothing.
 */
public final class ConsoleSummary {

    private static final int WIDTH = 50;
    /** Notes are printed whole, wrapped to this many columns; their later lines indented. */
    private static final int NOTE_WIDTH = 100;

    private static final int NOTE_INDENT = 4;

    private ConsoleSummary() {}

    /**
     * Which latency blocks the summary prints, and which percentiles in each (vLLM's
     * {@code --percentile-metrics} and {@code --metric-percentiles}); report.json keeps them all.
     */
    public record Latencies(Set<Latency> metrics, List<Percentile> percentiles) {

        /** The latency blocks, in the order printed. */
        public enum Latency {
            TTFT,
            ITL,
            TPOT,
            TTST,
            E2E,
            QUEUE
        }

        /** What the summary prints unless told otherwise. */
        public static final Latencies DEFAULT = new Latencies(
                EnumSet.allOf(Latency.class), List.of(Percentile.P50, Percentile.P90, Percentile.P95, Percentile.P99));

        public Latencies {
            metrics = Set.copyOf(metrics);
            percentiles = List.copyOf(percentiles);
        }
    }

    public static String render(RunReport report) {
        return render(report, Latencies.DEFAULT);
    }

    public static String render(RunReport report, Latencies latencies) {
        StringBuilder out = new StringBuilder();
        RunResults r = report.results();
        ruler(out, "llmload benchmark result", '=');
        line(
                out,
                "Target:",
                report.service().url()
                        + (report.service().framework() == null
                                ? ""
                                : " (" + report.service().framework() + ")"));
        line(out, "Model:", report.model().name());
        line(out, "API:", report.service().api() + (report.service().streaming() ? ", streaming" : ", not streaming"));
        line(out, "Load:", describeLoad(report));
        line(
                out,
                "Requests (measured, warm-up excluded):",
                String.valueOf(r.requests().attempted()));
        line(out, "Input tokens (requested):", report.data().inputTokens().requested());
        line(
                out,
                "Input tokens (mean / p50 / p99):",
                tokens(report.data().inputTokens().measured()));
        line(out, "Output tokens (requested):", report.data().outputTokens().requested());
        line(
                out,
                "Output tokens (mean / p50 / p99):",
                tokens(report.data().outputTokens().measured()));
        line(out, "Data source:", report.data().source());
        line(out, "Benchmark duration (s):", number(r.durationS()));
        if (report.config() != null && report.config().sessions() != null) {
            Sessions sessions = report.config().sessions();
            line(
                    out,
                    "Sessions / turns:",
                    "turns " + sessions.turns()
                            + (sessions.thinkTimeMs() == null ? "" : ", think time " + sessions.thinkTimeMs() + " ms")
                            + (report.config().bounds().numSessions() == null
                                    ? ""
                                    : ", " + report.config().bounds().numSessions() + " sessions")
                            + (sessions.maxSessions() == null
                                    ? ""
                                    : ", at most " + sessions.maxSessions() + " sessions in flight"));
        }
        if (r.sessions() != null) {
            SessionCounts ran = r.sessions();
            line(out, "Sessions run (all turns succeeded):", ran.sessions() + " (" + ran.sessionsAllSucceeded() + ")");
            line(
                    out,
                    "Turns run (per session mean / max):",
                    ran.turns() + " (" + number(ran.turnsPerSessionMean()) + " / " + ran.turnsPerSessionMax() + ")");
            line(
                    out,
                    "Session duration (ms, p50 / p99):",
                    ran.durationMs().isEmpty()
                            ? null
                            : number(ran.durationMs().p50()) + " / "
                                    + number(ran.durationMs().p99()));
            line(
                    out,
                    "In server / between calls (ms, mean):",
                    number(ran.serverMsMean()) + " / " + number(ran.betweenCallsMsMean()) + " (server "
                            + percent(ran.serverShare()) + ")");
            SessionCounts.Tasks tasks = ran.tasks();
            // Without subagents a task is a session, and the lines above already say it all.
            if (tasks.tasks() < ran.sessions()) {
                line(
                        out,
                        "Agent tasks (turns per task mean / max):",
                        tasks.tasks() + " (" + number(tasks.turnsPerTaskMean()) + " / " + tasks.turnsPerTaskMax()
                                + ")");
                line(
                        out,
                        "Task duration (ms, p50 / p99):",
                        number(tasks.durationMs().p50()) + " / "
                                + number(tasks.durationMs().p99()));
                line(
                        out,
                        "Task in server / waiting (ms, mean):",
                        number(tasks.serverMsMean()) + " / " + number(tasks.waitingMsMean()) + " (server "
                                + percent(tasks.serverShare()) + ")");
            }
            Double hitRate =
                    report.telemetry() == null ? null : report.telemetry().prefixCacheHitRate();
            line(
                    out,
                    "Prefix reuse intended / cache hit rate:",
                    percent(ran.intendedPrefixShare()) + " / " + percent(hitRate)
                            + (hitRate == null ? " (not scraped)" : " (scraped)"));
        }
        if (report.run().interrupted()) {
            line(out, "Interrupted:", "yes: only finished requests are counted");
        }
        ruler(out, "Throughput", '-');
        line(out, "Successful requests:", String.valueOf(r.requests().succeeded()));
        line(out, "Request throughput (req/s):", number(r.requestThroughput()));
        line(out, "Output token throughput (tok/s):", number(r.outputTokenThroughput()));
        line(out, "Total token throughput (tok/s):", number(r.totalTokenThroughput()));
        // One user's decode speed, beside the system's: not comparable with the lines above.
        line(out, "Output tok/s per user (mean/p50/p99):", perUser(r.outputTokenThroughputPerUser()));
        if (report.timeseries() != null && !report.timeseries().seconds().isEmpty()) {
            line(
                    out,
                    "Peak output throughput (tok/s):",
                    number(report.timeseries().peakOutputTokensPerS()));
            line(out, "Mean in flight (requests):", number(report.timeseries().inFlightMean(r.durationS())));
        }
        if (r.outputTokenThroughput() != null && r.outputTokenThroughput() == 0 && r.inputTokenThroughput() != null) {
            line(out, "Input token throughput (tok/s):", number(r.inputTokenThroughput()));
        }
        goodput(out, r.goodput());
        offeredVsAchieved(out, report.saturation());
        steadyState(out, r, report.steadyState());
        Map<Latencies.Latency, Summary> summaries = new EnumMap<>(Map.of(
                Latencies.Latency.TTFT,
                r.ttftMs(),
                Latencies.Latency.ITL,
                r.itlMs(),
                Latencies.Latency.TPOT,
                r.tpotMs(),
                Latencies.Latency.TTST,
                r.ttstMs(),
                Latencies.Latency.E2E,
                r.e2eLatencyMs(),
                Latencies.Latency.QUEUE,
                r.clientQueueTimeMs()));
        summaries.forEach((metric, summary) -> {
            if (latencies.metrics().contains(metric)) {
                block(out, metric, summary, latencies.percentiles());
            }
        });
        if (r.serverView() != null) {
            ServerView view = r.serverView();
            ruler(out, "Server's own timings (" + view.requests() + " requests)", '-');
            line(
                    out,
                    "Server prefill p50 (ms):",
                    number(view.serverFirstTokenMs().p50()));
            line(
                    out,
                    "Client TTFT p50, same requests (ms):",
                    number(view.clientTtftMs().p50()));
            line(out, "Server decode p50 (ms):", number(view.serverDecodeMs().p50()));
            line(out, "Server total p50 (ms):", number(view.serverTotalMs().p50()));
            line(
                    out,
                    "Client E2E p50, same requests (ms):",
                    number(view.clientE2eMs().p50()));
        }
        if (report.telemetry() != null) {
            server(out, report.telemetry());
        }
        if (report.efficiency() != null) {
            efficiency(out, report.efficiency());
        }
        ruler(out, "Errors", '-');
        line(out, "Success rate:", percent(r.successRate()));
        line(out, "Error rate:", percent(r.errorRate()));
        line(out, "Timeout rate:", percent(r.timeoutRate()));
        for (Map.Entry<String, RunResults.ErrorClassSummary> e : r.errors().entrySet()) {
            line(
                    out,
                    "  " + e.getKey() + ":",
                    e.getValue().count() + " (" + percent(e.getValue().rate()) + ")"
                            + (e.getValue().samples().isEmpty()
                                    ? ""
                                    : " e.g. " + oneLine(e.getValue().samples().getFirst())));
        }
        if (report.client() != null) {
            ruler(out, "Client (llmload itself)", '-');
            out.append(report.client().verdict()).append('\n');
        }
        if (!report.notes().isEmpty()) {
            ruler(out, "Notes", '-');
            for (Note note : report.notes()) {
                wrapped(
                        out,
                        "[" + note.kind() + "] "
                                + ServerText.clean(note.message().replaceAll("\\s+", " ")));
            }
        }
        out.append("=".repeat(WIDTH)).append('\n');
        return out.toString();
    }

    /** What met the SLOs: only when SLOs were given. */
    private static void goodput(StringBuilder out, Goodput g) {
        if (g == null) {
            return;
        }
        ruler(out, "Goodput (requests meeting the SLOs)", '-');
        line(out, "Requests meeting the SLOs:", g.met() + " of " + g.attempted() + " (" + percent(g.metShare()) + ")");
        line(out, "Request goodput (req/s):", number(g.requestGoodput()));
        line(out, "Output token goodput (tok/s):", number(g.outputTokenGoodput()));
    }

    /** The load offered beside the load served: where a server that cannot keep up shows. */
    private static void offeredVsAchieved(StringBuilder out, Saturation s) {
        if (s == null) {
            return;
        }
        ruler(out, "Offered vs Achieved", '-');
        if (s.offeredConcurrency() != null) {
            line(out, "Offered concurrency:", String.valueOf(s.offeredConcurrency()));
        } else {
            line(out, "Offered request rate (req/s):", number(s.offeredRequestRate()));
            line(out, "Scheduled request rate (req/s):", number(s.scheduledRequestRate()));
        }
        line(out, "Arrival window (s):", number(s.arrivalWindowS()));
        line(out, "Achieved request rate (req/s):", number(s.achievedRequestRate()));
        // The label fits the 40 columns; the value says which part is which.
        line(
                out,
                "Backlog at last arrival:",
                s.backlog() + " (" + s.backlogInFlight() + " in flight, " + s.backlogQueued() + " queued)");
        if (s.steadyBacklog() != null) {
            line(out, "Backlog of a server keeping up:", String.format(Locale.ROOT, "%.1f", s.steadyBacklog()));
        }
        line(out, "Drain after last arrival (s):", number(s.drainS()));
        line(out, "Saturated:", s.saturated() == null ? "n/a" : s.saturated() ? "YES (see notes)" : "no");
        if (s.stages() != null) {
            stages(out, s.stages());
        }
    }

    /**
     * A changing load stage by stage: where the latency climbed or the completions stopped keeping
     * up. A row is wider than the 50 columns of the rest; it is a table, not a label and a value.
     */
    private static void stages(StringBuilder out, List<LoadStage> stages) {
        String unit = stages.getFirst().offered() == LoadStage.Offered.CONCURRENCY ? "conc." : "req/s";
        ruler(out, "Load stages: offered / served", '-');
        String row = "%-15s %-13s %7s %7s %8s %19s%n";
        out.append(String.format(
                Locale.ROOT, row, "Stage (s)", "Offered " + unit, "Sent", "OK", "Ended/s", "TTFT p50 / p99 (ms)"));
        for (LoadStage stage : stages) {
            String offered = stage.offeredFrom() == stage.offeredTo()
                    ? compact(stage.offeredFrom())
                    : compact(stage.offeredFrom()) + "-" + compact(stage.offeredTo());
            out.append(String.format(
                    Locale.ROOT,
                    row,
                    compact(stage.startS()) + "-" + compact(stage.endS()),
                    offered,
                    stage.arrivals(),
                    stage.succeeded(),
                    number(stage.achievedRequestRate()),
                    number(stage.ttftP50Ms()) + " / " + number(stage.ttftP99Ms())));
        }
    }

    /** Up to one decimal, without a trailing {@code .0}. */
    private static String compact(double value) {
        String text = String.format(Locale.ROOT, "%.1f", value);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }

    /** The headline figures of the steady-state window beside the whole run's. */
    private static void steadyState(StringBuilder out, RunResults whole, SteadyState steady) {
        if (steady == null) {
            return;
        }
        ruler(out, "Steady State (MSER-5): window / whole run", '-');
        if (!steady.reached()) {
            line(out, "Window:", "not reached (see notes)");
            return;
        }
        RunResults w = steady.results();
        line(
                out,
                "Window (s from start):",
                String.format(
                        Locale.ROOT,
                        "%.2f to %.2f, %d of %d requests",
                        steady.startS(),
                        steady.endS(),
                        steady.requests(),
                        steady.requests() + steady.cut()));
        line(
                out,
                "Request throughput (req/s):",
                number(w.requestThroughput()) + " / " + number(whole.requestThroughput()));
        line(
                out,
                "Output token throughput (tok/s):",
                number(w.outputTokenThroughput()) + " / " + number(whole.outputTokenThroughput()));
        for (String[] metric : new String[][] {{"TTFT", "ttft"}, {"TPOT", "tpot"}, {"E2E", "e2e"}}) {
            Summary in = pick(w, metric[1]);
            Summary all = pick(whole, metric[1]);
            line(
                    out,
                    metric[0] + " p50 / p99 (ms):",
                    number(in.p50()) + " / " + number(in.p99()) + "  (whole run " + number(all.p50()) + " / "
                            + number(all.p99()) + ")");
        }
    }

    private static Summary pick(RunResults results, String metric) {
        return switch (metric) {
            case "ttft" -> results.ttftMs();
            case "tpot" -> results.tpotMs();
            default -> results.e2eLatencyMs();
        };
    }

    /** What the server's /metrics and the GPUs showed; a signal they did not expose is left out. */
    private static void server(StringBuilder out, TelemetrySummary t) {
        ruler(out, "Server (scraped)", '-');
        line(out, "Scrapes (gaps):", t.serverScrapes() + " (" + t.scrapeGaps() + ")");
        gauge(out, "KV cache usage, mean / max:", t.kvCacheUsage(), true);
        gauge(out, "Requests running, mean / max:", t.requestsRunning(), false);
        gauge(out, "Requests waiting, mean / max:", t.requestsWaiting(), false);
        if (t.serverQueueTimeMs() != null && t.serverQueueTimeMs().count() > 0) {
            line(
                    out,
                    "Server queue time mean / p99 (ms):",
                    number(t.serverQueueTimeMs().mean()) + " / "
                            + number(t.serverQueueTimeMs().p99()));
        }
        if (t.gpu() != null) {
            if (t.gpu().utilizationMean() != null) {
                line(out, "GPU utilisation, mean (%):", number(t.gpu().utilizationMean()));
            }
            if (t.gpu().memoryUsedGibMax() != null) {
                line(
                        out,
                        "GPU memory used, max (GiB):",
                        number(t.gpu().memoryUsedGibMax())
                                + (t.gpu().memoryTotalGib() == null
                                        ? ""
                                        : " of " + number(t.gpu().memoryTotalGib())));
            }
        }
    }

    private static void gauge(StringBuilder out, String label, TelemetrySummary.GaugeStats g, boolean share) {
        if (g == null || g.mean() == null) {
            return;
        }
        line(
                out,
                label,
                share ? percent(g.mean()) + " / " + percent(g.max()) : number(g.mean()) + " / " + number(g.max()));
    }

    private static void efficiency(StringBuilder out, Efficiency e) {
        ruler(out, "Cost and energy", '-');
        if (e.gpuHourPrice() != null) {
            line(
                    out,
                    "GPU-hour price:",
                    number(e.gpuHourPrice()) + " " + e.currency()
                            + (e.gpuCount() == null ? ", GPU count unknown" : " x " + e.gpuCount() + " GPUs"));
            line(out, "Cost per 1M output tokens:", money(e.costPerMillionOutputTokens(), e.currency()));
            line(out, "Cost per 1M total tokens:", money(e.costPerMillionTotalTokens(), e.currency()));
        }
        if (e.gpuPowerWatts() != null) {
            line(out, "GPU power, mean / idle (W):", number(e.gpuPowerWatts()) + " / " + number(e.gpuIdlePowerWatts()));
            line(out, "Energy per output token (J):", number(e.energyPerOutputTokenJoules()));
        }
    }

    private static String money(Double amount, String currency) {
        return amount == null ? "n/a" : String.format(Locale.ROOT, "%.4f %s", amount, currency);
    }

    private static String describeLoad(RunReport report) {
        RunReport.Load load = report.load();
        Load configured = report.config() == null ? null : report.config().load();
        if (load.mode() == Load.Mode.OPEN) {
            String profile = configured instanceof Load.Open open ? open.profile() : null;
            String text = "open loop, "
                    + (load.requestRate() == null && profile != null
                            ? load.arrival() + " " + profile
                            : number(load.requestRate()) + " req/s " + load.arrival()
                                    + (load.burstiness() != null && load.arrival() == Load.Arrival.GAMMA
                                            ? " (burstiness " + load.burstiness() + ")"
                                            : ""));
            return load.maxConcurrency() == null ? text : text + ", max concurrency " + load.maxConcurrency();
        }
        String profile = configured instanceof Load.Closed closed ? closed.profile() : null;
        return "closed loop, "
                + (profile == null ? "concurrency " + load.concurrency() : "concurrency profile " + profile);
    }

    private static void block(
            StringBuilder out, Latencies.Latency metric, Summary summary, List<Percentile> percentiles) {
        String title = switch (metric) {
            case TTFT -> "Time to First Token";
            case ITL -> "Inter-token Latency";
            case TPOT -> "Time per Output Token (excl. 1st token)";
            case TTST -> "Time to Second Token";
            case E2E -> "End-to-end Latency";
            case QUEUE -> "Client Queue Time (gate and schedule lag)";
        };
        String label = metric == Latencies.Latency.QUEUE ? "queue" : metric.name();
        ruler(out, title + " (ms)", '-');
        if (summary.isEmpty()) {
            line(out, "Mean " + label + " (ms):", "n/a (no samples)");
            return;
        }
        line(out, "Mean " + label + " (ms):", number(summary.mean()));
        for (Percentile p : percentiles) {
            String value = number(summary.percentile(p));
            if (summary.count() < p.minimumConfidentCount()) {
                value += "  (low confidence: " + summary.count() + " samples)";
            }
            line(out, "P" + compact(p.value()) + " " + label + " (ms):", value);
        }
    }

    private static void ruler(StringBuilder out, String title, char c) {
        String text = title.length() + 2 >= WIDTH ? title : " " + title + " ";
        int left = Math.max(0, (WIDTH - text.length()) / 2);
        int right = Math.max(0, WIDTH - text.length() - left);
        out.append(String.valueOf(c).repeat(left))
                .append(text)
                .append(String.valueOf(c).repeat(right))
                .append('\n');
    }

    private static void line(StringBuilder out, String label, String value) {
        // Values may come from a journal written by another version, or edited: escaped again for the terminal.
        out.append(String.format(Locale.ROOT, "%-40s%s%n", label, value == null ? "n/a" : ServerText.clean(value)));
    }

    private static String tokens(Summary summary) {
        if (summary.isEmpty()) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.1f / %.0f / %.0f", summary.mean(), summary.p50(), summary.p99());
    }

    private static String perUser(Summary summary) {
        if (summary == null || summary.isEmpty()) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f", summary.mean(), summary.p50(), summary.p99());
    }

    static String number(Double value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String percent(Double value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.2f%%", value * 100);
    }

    /** A note in full, wrapped at {@link #NOTE_WIDTH} columns with the following lines indented. */
    static void wrapped(StringBuilder out, String text) {
        int column = 0;
        for (String word : text.split(" ")) {
            if (column > NOTE_INDENT && column + 1 + word.length() > NOTE_WIDTH) {
                out.append('\n').append(" ".repeat(NOTE_INDENT)).append(word);
                column = NOTE_INDENT + word.length();
            } else {
                out.append(column == 0 ? "" : " ").append(word);
                column += (column == 0 ? 0 : 1) + word.length();
            }
        }
        out.append('\n');
    }

    private static String oneLine(String text) {
        String flat = ServerText.clean(text.replaceAll("\\s+", " "));
        return flat.length() > 120 ? flat.substring(0, 120) + "..." : flat;
    }
}
