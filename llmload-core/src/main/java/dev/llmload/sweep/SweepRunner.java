package dev.llmload.sweep;

import dev.llmload.analysis.Saturation;
import dev.llmload.compare.Repeats;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunDirectory;
import dev.llmload.report.RunReport;
import dev.llmload.report.format.SummaryCsv;
import dev.llmload.report.html.HtmlReport;
import dev.llmload.report.html.LabeledRun;
import dev.llmload.report.html.SweepMarkers;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.RunException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the points of a sweep, each a complete run directory under the sweep directory, and keeps
 * {@code sweep.json}, {@code summary.csv} and {@code report.html} up to date after every point.
 * A point's directory is named by its place in the run order and its load ({@code 03-r12.5}), so
 * a resumed sweep, which makes the same choices from the same results, finds it again; a point
 * whose directory holds a complete report of the same configuration is not run again. With
 * {@code repeats} above 1, a point runs that many times, into {@code repeat-1} .. {@code repeat-K}
 * under its directory, with their {@code repeats.json}; it is judged on its runs together
 * ({@link PointVerdict}), and a capacity search counts it as passing only when confirmed.
 *
 * <p>{@link #run} runs on the caller's thread; {@link #stop} may be called from any thread and
 * ends the sweep after the point in progress.
 */
public final class SweepRunner {

    /** Runs one point to its run directory (the configuration names it). */
    @FunctionalInterface
    public interface PointRunner {
        BenchmarkRun.Result run(RunConfig config) throws RunException, IOException, InterruptedException;
    }

    /**
     * A finished point; {@code order} sorts points by the load offered.
     *
     * @param reports its runs' reports, one per repeat
     * @param runs    their directories, relative to the sweep directory
     */
    private record Finished(
            SweepReport.Point point, double order, List<RunReport> reports, List<String> runs, RunConfig config) {
        /** The first run's report: what sizes a capacity probe. */
        RunReport report() {
            return reports.getFirst();
        }
    }

    /**
     * The re-runs of a capacity search's bracket run this many times the requests of the point they
     * re-run: twice as long as a check of five times a point, so that the answer holds on such a
     * check, which, near the server's limit, could go either way at the re-run's own length.
     */
    static final int RECHECK_FACTOR = 10;
    /** A capacity point is resized to at most this many times {@code --num-requests}. */
    static final int MAX_SIZE_FACTOR = 20;
    /** Sized with this much more than the window the rule needs, as the start latency varies from run to run. */
    private static final double SIZE_MARGIN = 1.25;

    /** Ends the sweep early; thrown between points after {@link #stop}, or when a point was interrupted. */
    private static final class Stopped extends Exception {
        Stopped() {
            super(null, null, false, false);
        }
    }

    private final RunConfig base;
    private final Path directory;
    private final SweepMode mode;
    private final PercentileSlo slo;
    private final Duration coolDown;
    private final double kneeFactor;
    private final int repeats;
    private final PointRunner runner;
    private final Consumer<String> log;
    private final List<Finished> finished = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private CapacitySearch.Result capacity;
    private boolean anyRun;

    /**
     * @param base       every point's configuration but its load and directory; for rate points, its
     *                   load's arrival process, burstiness and gate are kept
     * @param slo        limits each point is judged by; required by a capacity search, else optional (null)
     * @param coolDown   pause before each run after the first one run; zero for none
     * @param repeats    runs per point, at least 1
     * @param log        hears one line per point, for the console
     */
    public SweepRunner(
            RunConfig base,
            Path directory,
            SweepMode mode,
            PercentileSlo slo,
            Duration coolDown,
            double kneeFactor,
            int repeats,
            PointRunner runner,
            Consumer<String> log) {
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeats);
        }
        if (mode instanceof SweepMode.Capacity search && slo == null) {
            throw new IllegalArgumentException("a capacity search needs an SLO");
        }
        String shape = switch (base.load()) {
            case Load.Closed closed -> closed.profile() == null ? null : "concurrency profile";
            case Load.Open open ->
                open.profile() == null ? null : open.arrival().cliName();
            case Load.Trace trace -> null;
        };
        if (shape != null) {
            throw new IllegalArgumentException(
                    "a sweep varies a steady load; a load profile (" + shape + ") cannot be swept");
        }
        this.base = base;
        this.directory = directory;
        this.mode = mode;
        this.slo = slo;
        this.coolDown = coolDown;
        this.kneeFactor = kneeFactor;
        this.repeats = repeats;
        this.runner = runner;
        this.log = log;
    }

    /** Ends the sweep after the point in progress (and cuts a cool-down short). */
    public void stop() {
        stopped.countDown();
    }

    /** Runs (or resumes) the sweep and returns what {@code sweep.json} now holds. */
    public SweepReport run() throws RunException, IOException, InterruptedException {
        Files.createDirectories(directory);
        boolean interrupted = false;
        try {
            switch (mode) {
                case SweepMode.Fixed fixed -> {
                    for (double value : fixed.values()) {
                        point("point", fixed.axis(), value, value);
                    }
                }
                case SweepMode.Auto auto -> runAuto(auto);
                case SweepMode.Capacity search -> runCapacity(search);
            }
        } catch (Stopped e) {
            interrupted = true;
        }
        return write(interrupted);
    }

    private void runAuto(SweepMode.Auto auto) throws Stopped, RunException, IOException, InterruptedException {
        RunReport baseline = point("baseline", SweepMode.Axis.CONCURRENCY, 1, Double.NEGATIVE_INFINITY);
        RunReport maximum =
                point("throughput", SweepMode.Axis.CONCURRENCY, auto.unboundedConcurrency(), Double.POSITIVE_INFINITY);
        Double low = baseline.results().requestThroughput();
        Double high = maximum.results().requestThroughput();
        if (low == null || high == null) {
            throw new RunException("the automatic sweep measured no throughput (nothing succeeded) at "
                    + (low == null ? "concurrency 1" : "concurrency " + auto.unboundedConcurrency()));
        }
        for (double rate : SweepValues.autoRates(low, high, auto.points())) {
            // Rounded so that directory names and the report stay readable; 0.001 req/s changes nothing.
            double rounded = Math.max(0.001, Math.round(rate * 1000) / 1000.0);
            point("point", SweepMode.Axis.RATE, rounded, rounded);
        }
    }

    private void runCapacity(SweepMode.Capacity search)
            throws Stopped, RunException, IOException, InterruptedException {
        CapacitySearch state = new CapacitySearch(
                search.start(), search.precision(), search.maxPoints(), search.axis() == SweepMode.Axis.CONCURRENCY);
        while (state.next() instanceof CapacitySearch.Step.Probe probe) {
            List<RunReport> reports = sizedPoint(search.axis(), probe).reports();
            PointVerdict verdict = PointVerdict.of(reports, slo);
            // What a saturated server achieved is what it can serve: no load above it needs trying.
            Double served = reports.stream()
                    .map(RunReport::saturation)
                    .filter(s -> s != null && Boolean.TRUE.equals(s.saturated()))
                    .map(Saturation::achievedRequestRate)
                    .min(Double::compare)
                    .orElse(null);
            state.record(verdict.confirmedPass(), verdict.searchLimiting(), served);
        }
        capacity = ((CapacitySearch.Step.Done) state.next()).result();
        Double found = capacity.capacity();
        Finished answer = found == null
                ? null
                : finished.reversed().stream()
                        .filter(f -> f.point().value() == found)
                        .findFirst()
                        .orElse(null);
        if (capacity.confirmed() && answer != null && answer.point().tooShort()) {
            capacity = new CapacitySearch.Result(
                    found,
                    capacity.firstFailure(),
                    capacity.lowestFailure(),
                    capacity.limitingMetric(),
                    false,
                    capacity.reason() + ", but its run was too short to tell saturation (see too_short)");
        }
    }

    /**
     * Runs a probe of the capacity search with enough requests to tell saturation. A rate point
     * bounded by {@code --num-requests} gets at least enough for its arrival window to cover
     * {@link Saturation#MIN_WINDOW_LATENCIES} start latencies of the nearest lower load run so far;
     * when its own start latency shows that was still too few, it runs again, resized, up to
     * {@link #MAX_SIZE_FACTOR} times the requests asked for. The re-run of the answer runs
     * {@link #RECHECK_FACTOR} times the requests of the point it re-runs. Concurrency points and
     * points bounded by {@code --duration} run as given; a too short one is marked {@code too_short}.
     */
    private Finished sizedPoint(SweepMode.Axis axis, CapacitySearch.Step.Probe probe)
            throws Stopped, RunException, IOException, InterruptedException {
        String role = probe.recheck() ? "recheck" : "probe";
        Long asked = base.bounds().numRequests();
        if (axis != SweepMode.Axis.RATE || asked == null || base.bounds().duration() != null) {
            return point(role, axis, probe.value(), probe.value(), null);
        }
        long cap = asked * MAX_SIZE_FACTOR;
        long requests;
        if (probe.recheck()) {
            long earlier = finished.reversed().stream()
                    .filter(f -> f.point().value() == probe.value())
                    .findFirst()
                    .map(f -> f.config().bounds().numRequests())
                    .orElse(asked);
            requests = earlier * RECHECK_FACTOR;
        } else {
            Double latency = finished.stream()
                    .filter(f -> f.point().value() <= probe.value())
                    .max(Comparator.comparingDouble(f -> f.point().value()))
                    .map(f -> f.report().saturation() == null
                            ? null
                            : f.report().saturation().startLatencyS())
                    .orElse(null);
            requests = latency == null ? asked : Math.min(cap, Math.max(asked, requestsFor(probe.value(), latency)));
        }
        Finished run = point(role, axis, probe.value(), probe.value(), requests);
        for (int resize = 0; resize < 2 && !probe.recheck(); resize++) {
            Saturation saturation = run.report().saturation();
            if (saturation == null
                    || !run.point().tooShort()
                    || Boolean.TRUE.equals(run.point().saturated())
                    || requests >= cap) {
                break;
            }
            requests = Math.min(cap, Math.max(requests + 1, requestsFor(probe.value(), saturation.startLatencyS())));
            run = point("resized", axis, probe.value(), probe.value(), requests);
        }
        return run;
    }

    /** Requests whose arrivals at {@code rate} span {@link Saturation#MIN_WINDOW_LATENCIES} start latencies, warm-up added. */
    private long requestsFor(double rate, double startLatencyS) {
        double window = Saturation.MIN_WINDOW_LATENCIES * startLatencyS * SIZE_MARGIN;
        return (long) Math.ceil(rate * window) + 1 + base.bounds().warmup();
    }

    private RunReport point(String role, SweepMode.Axis axis, double value, double order)
            throws Stopped, RunException, IOException, InterruptedException {
        return point(role, axis, value, order, null).report();
    }

    /** @param requests {@code --num-requests} of this point; null for the sweep's own */
    private Finished point(String role, SweepMode.Axis axis, double value, double order, Long requests)
            throws Stopped, RunException, IOException, InterruptedException {
        if (stopped.getCount() == 0) {
            throw new Stopped();
        }
        int index = finished.size() + 1;
        Load load = axis.at(value, base.load());
        String name = String.format(Locale.ROOT, "%02d-%s", index, load.label());
        Path dir = directory.resolve(name);
        RunConfig config = (requests == null ? base : base.withNumRequests(requests))
                .withLoad(load)
                .withOutputDir(dir);
        List<RunReport> reports = new ArrayList<>();
        List<String> runs = new ArrayList<>();
        boolean resumed = true;
        boolean interrupted = false;
        for (int repeat = 1; repeat <= repeats && !interrupted; repeat++) {
            Path runDir = repeats == 1 ? dir : dir.resolve("repeat-" + repeat);
            RunConfig runConfig = config.withOutputDir(runDir);
            RunReport report = completeEarlierRun(runDir, runConfig);
            if (report == null) {
                resumed = false;
                if (stopped.getCount() == 0
                        || anyRun && !coolDown.isZero() && stopped.await(coolDown.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new Stopped();
                }
                anyRun = true;
                report = runner.run(runConfig).report();
            }
            interrupted = report.run().interrupted();
            if (interrupted && repeats > 1) {
                // Listed once all its runs have finished; --resume keeps those that did.
                throw new Stopped();
            }
            reports.add(report);
            runs.add(directory.relativize(runDir).toString());
        }
        if (repeats > 1) {
            Repeats summary = Repeats.of(
                    runs.stream().map(r -> Path.of(r).getFileName().toString()).toList(), reports);
            ReportFiles.writeAtomically(
                    dir.resolve(Repeats.FILE_NAME), ReportFiles.JSON.writeValueAsString(summary) + "\n");
        }
        SweepReport.Point point = SweepReport.Point.of(index, role, name, value, reports, slo, resumed);
        Finished done = new Finished(point, order, List.copyOf(reports), List.copyOf(runs), config);
        finished.add(done);
        log.accept(describe(point, resumed));
        write(false);
        if (interrupted) {
            throw new Stopped();
        }
        return done;
    }

    /** The report of a finished, uninterrupted run of {@code config} in {@code dir}; null when there is none. */
    private static RunReport completeEarlierRun(Path dir, RunConfig config) {
        if (!Files.isRegularFile(dir.resolve(ReportFiles.REPORT_JSON))) {
            return null;
        }
        try {
            RunReport report = RunDirectory.readReport(dir);
            // The same configuration as report.json records it (where the API key is read is not recorded).
            boolean same = report.config() != null
                    && ReportFiles.JSON
                            .valueToTree(report.config().withOutputDir(null))
                            .equals(ReportFiles.JSON.valueToTree(config.withOutputDir(null)));
            return same && !report.run().interrupted() ? report : null;
        } catch (IOException e) {
            return null; // a half-written or foreign report: the point runs again
        }
    }

    private SweepReport write(boolean interrupted) throws IOException {
        List<Finished> ordered = finished.stream()
                .sorted(Comparator.comparingDouble(Finished::order))
                .toList();
        List<KneeDetector.Point> curve = ordered.stream()
                .map(f -> new KneeDetector.Point(
                        orZero(f.point().requestThroughput()),
                        f.point().p99TtftMs(),
                        f.point().p99E2eMs(),
                        f.point().errorRate()))
                .toList();
        SweepReport.Knee knee = KneeDetector.find(curve, kneeFactor, KneeDetector.DEFAULT_ERROR_RISE)
                .map(k -> new SweepReport.Knee(
                        ordered.get(k.index()).point().directory(),
                        k.throughput(),
                        ordered.get(k.riseIndex()).point().directory(),
                        k.reason()))
                .orElse(null);
        String axis = mode instanceof SweepMode.Fixed fixed
                ? fixed.axis().cliName()
                : mode instanceof SweepMode.Capacity search ? search.axis().cliName() : SweepMode.Axis.RATE.cliName();
        SweepReport report = new SweepReport(
                SweepReport.SCHEMA_VERSION,
                mode.name(),
                axis,
                slo == null ? null : slo.toString(),
                repeats,
                ordered.stream().map(Finished::point).toList(),
                knee,
                capacity,
                interrupted);
        ReportFiles.writeAtomically(
                directory.resolve(ReportFiles.SWEEP_JSON), ReportFiles.JSON.writeValueAsString(report) + "\n");
        StringBuilder csv = new StringBuilder(SummaryCsv.header()).append('\n');
        ordered.forEach(
                f -> f.reports().forEach(r -> csv.append(SummaryCsv.row(r)).append('\n')));
        ReportFiles.writeAtomically(directory.resolve(ReportFiles.SUMMARY_CSV), csv.toString());
        // Each repeat is drawn as a run of its own, so the page shows how far the repeats scatter.
        List<LabeledRun> runs = new ArrayList<>();
        Map<String, SweepMarkers.PointLabel> labels = new LinkedHashMap<>();
        for (Finished f : ordered) {
            for (int i = 0; i < f.reports().size(); i++) {
                runs.add(new LabeledRun(f.runs().get(i), f.reports().get(i)));
                labels.put(
                        f.runs().get(i),
                        new SweepMarkers.PointLabel(
                                f.point().role(),
                                f.point().meetsSlo(),
                                f.point().violations()));
            }
        }
        SweepMarkers markers = new SweepMarkers(
                slo == null ? null : slo.latencyLinesMs(),
                capacityThroughput(),
                capacity == null ? null : capacity.capacity(),
                axis,
                knee == null ? null : knee.requestThroughput(),
                labels);
        ReportFiles.writeAtomically(directory.resolve(HtmlReport.FILE_NAME), HtmlReport.forSweep(runs, markers));
        return report;
    }

    /** The achieved throughput of the capacity's last run (its re-run, when there was one). */
    private Double capacityThroughput() {
        if (capacity == null || capacity.capacity() == null) {
            return null;
        }
        return finished.reversed().stream()
                .filter(f -> f.point().value() == capacity.capacity())
                .findFirst()
                .map(f -> f.point().requestThroughput())
                .orElse(null);
    }

    private static double orZero(Double value) {
        return value == null ? 0 : value;
    }

    private static String describe(SweepReport.Point p, boolean resumed) {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%-14s %-10s %8s req/s  p99 TTFT %s  p99 E2E %s  errors %s",
                p.directory(),
                p.role(),
                number(p.requestThroughput(), "%.2f"),
                ms(p.p99TtftMs()),
                ms(p.p99E2eMs()),
                p.errorRate() == null ? "-" : String.format(Locale.ROOT, "%.1f%%", p.errorRate() * 100)));
        if (p.repeats() > 1) {
            line.append("  (mean of ").append(p.repeats()).append(" runs)");
        }
        if (p.meetsSlo() != null) {
            line.append(
                    !p.meetsSlo()
                            ? "  misses " + String.join(", ", p.violations())
                            : Boolean.FALSE.equals(p.confirmed())
                                    ? "  meets the SLO on the mean, UNCONFIRMED: " + String.join(", ", p.unconfirmed())
                                    : Boolean.TRUE.equals(p.confirmed())
                                            ? "  meets the SLO, confirmed across the runs"
                                            : "  meets the SLO");
        } else if (Boolean.TRUE.equals(p.saturated())) {
            line.append("  ").append(p.violations().getFirst());
        }
        if (!p.lowConfidence().isEmpty()) {
            line.append("  (low-sample ")
                    .append(String.join(", ", p.lowConfidence()))
                    .append(')');
        }
        if (p.tooShort()) {
            line.append("  (too short to tell saturation)");
        }
        if (resumed) {
            line.append("  (kept from before)");
        }
        return line.toString();
    }

    private static String ms(Double value) {
        return value == null ? "-" : number(value, "%.1f") + " ms";
    }

    private static String number(Double value, String format) {
        return value == null ? "-" : String.format(Locale.ROOT, format, value);
    }
}
