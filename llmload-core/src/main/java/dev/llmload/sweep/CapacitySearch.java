package dev.llmload.sweep;

import dev.llmload.metrics.PercentileSlo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The capacity search as a pure state machine: which load to try next, given whether each tried
 * load met the SLO. It brackets (start, then double while points pass, or halve while they fail),
 * bisects between the highest passing and the lowest failing load until they are within the
 * precision, then re-runs the lowest failing load (unless it failed as saturated) and the answer:
 * a failure that passes on its re-run was bad luck and the search goes on above it; a pass that
 * fails on its re-run is dropped and the search goes on below it. At most {@code maxPoints} loads are tried.
 *
 * <p>Use: loop {@link #next()}; after each {@link Step.Probe}, run it and {@link #record} the verdict.
 * Not thread-safe; one search per sweep.
 */
public final class CapacitySearch {

    /** What a saturated load fails on: a strong verdict, never re-run. */
    static final String SATURATION = "saturation";

    /** What to do next. */
    public sealed interface Step {
        /** Run this load; {@code recheck} marks the re-run of the answer. */
        record Probe(double value, boolean recheck) implements Step {}

        /** The search is over. */
        record Done(Result result) implements Step {}
    }

    /**
     * The answer.
     *
     * @param capacity         the highest load that met the SLO (on its re-run when {@code confirmed}); null if none did
     * @param firstFailure     the first load, in the order tried, that missed the SLO; null if none did
     * @param lowestFailure    the lowest load that missed it (a passed load whose re-run failed included); null if none did
     * @param limitingMetric   what failed at the lowest load that failed, the one nearest the capacity:
     *                         {@code saturation}, or the first limit it missed
     * @param confirmed        the search converged and its answer passed the re-run
     * @param reason           why the search stopped, for people
     */
    public record Result(
            Double capacity,
            Double firstFailure,
            Double lowestFailure,
            String limitingMetric,
            boolean confirmed,
            String reason) {}

    /** How close the bracket must get: within {@code value × lowest passing load} when relative, else within {@code value}. */
    public record Precision(double value, boolean relative) {

        public Precision {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("the precision must be a positive number");
            }
        }

        /** Parses {@code 5%} (relative) or {@code 0.5} (absolute, in the load's unit). */
        public static Precision parse(String text) {
            String trimmed = text.trim();
            boolean relative = trimmed.endsWith("%");
            try {
                double number = Double.parseDouble(relative ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
                return new Precision(relative ? number / 100 : number, relative);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is neither a percentage (5%) nor a number");
            }
        }

        boolean reached(double passing, double failing) {
            return failing - passing <= (relative ? value * passing : value);
        }

        @Override
        public String toString() {
            return relative ? PercentileSlo.format(value * 100) + "%" : PercentileSlo.format(value);
        }
    }

    private final double start;
    private final Precision precision;
    private final int maxPoints;
    private final boolean integral;
    /** Loads that passed and were not refuted by a failed re-run; the highest is the lower bound. */
    private final List<Double> passing = new ArrayList<>();

    private double lowestFailing = Double.NaN;
    /** Loads that failed (or that a saturated load's achieved rate bounds), with what failed there. */
    private final java.util.TreeMap<Double, String> failing = new java.util.TreeMap<>();
    /** Failing loads re-run already, or not to be re-run. */
    private final java.util.Set<Double> rechecked = new java.util.HashSet<>();

    private Double firstFailure;
    private String limitingMetric;
    private Step.Probe pending;
    private int tried;
    private Result done;

    /**
     * @param start     the first load to try
     * @param integral  loads are whole numbers (a concurrency): the search stops when the bracket is 1 wide
     */
    public CapacitySearch(double start, Precision precision, int maxPoints, boolean integral) {
        if (!(start > 0)) {
            throw new IllegalArgumentException("the search must start above 0, got " + start);
        }
        if (maxPoints < 2) {
            throw new IllegalArgumentException("--max-points must be at least 2, got " + maxPoints);
        }
        this.start = integral ? Math.max(1, Math.rint(start)) : start;
        this.precision = precision;
        this.maxPoints = maxPoints;
        this.integral = integral;
    }

    public Step next() {
        if (pending != null) {
            throw new IllegalStateException("record the verdict of " + pending.value() + " first");
        }
        if (done != null) {
            return new Step.Done(done);
        }
        Double low = highestPassing();
        boolean failed = !Double.isNaN(lowestFailing);
        if (tried >= maxPoints) {
            return finish(low, false, "stopped after --max-points " + maxPoints + " before converging");
        }
        if (tried == 0) {
            return probe(start, false);
        }
        if (!failed) {
            return probe(low * 2, false);
        }
        if (low == null) {
            double lower = integral ? Math.floor(lowestFailing / 2) : lowestFailing / 2;
            if (lower < (integral ? 1 : Double.MIN_NORMAL)) {
                return finish(null, false, "even the lowest load missed the SLO");
            }
            return probe(lower, false);
        }
        double middle = integral ? Math.floor((low + lowestFailing) / 2) : (low + lowestFailing) / 2;
        if (precision.reached(low, lowestFailing) || middle <= low) {
            // Both ends are re-run before the answer stands: a failure may be as much luck as a pass.
            if (!rechecked.contains(lowestFailing) && !SATURATION.equals(failing.get(lowestFailing))) {
                return probe(lowestFailing, true);
            }
            return probe(low, true);
        }
        return probe(middle, false);
    }

    /**
     * The verdict of the load just tried.
     *
     * @param limiting what it failed on ({@code saturation} or the first limit missed); null when it passed
     */
    public void record(boolean passed, String limiting) {
        record(passed, limiting, null);
    }

    /**
     * The verdict of the load just tried.
     *
     * @param limiting what it failed on ({@code saturation} or the first limit missed); null when it passed
     * @param served   for a saturated load, the rate the server achieved under it: what it can serve at
     *                 most, so every load from there up fails as well. Used only when above the highest
     *                 load that passed; null otherwise
     */
    public void record(boolean passed, String limiting, Double served) {
        Step.Probe probe = pending;
        if (probe == null) {
            throw new IllegalStateException("no load is being tried");
        }
        pending = null;
        tried++;
        boolean failureRecheck = probe.recheck() && failing.containsKey(probe.value());
        if (failureRecheck) {
            rechecked.add(probe.value());
        }
        if (passed) {
            if (failureRecheck) {
                // The earlier failure was bad luck (a cold start, a busy moment): the load passes.
                failing.remove(probe.value());
                lowestFailing = failing.isEmpty() ? Double.NaN : failing.firstKey();
                limitingMetric = failing.isEmpty() ? null : failing.firstEntry().getValue();
                passing.add(probe.value());
            } else if (probe.recheck()) {
                done = new Result(
                        probe.value(),
                        firstFailure,
                        lowest(),
                        limitingMetric,
                        true,
                        "converged to within " + precision + " and the answer passed its re-run");
            } else {
                passing.add(probe.value());
            }
            return;
        }
        if (firstFailure == null) {
            firstFailure = probe.value();
        }
        double failed = probe.value();
        Double low = highestPassing();
        if (served != null && served < failed && (low == null || served > low)) {
            failed = integral ? Math.ceil(served) : served;
            rechecked.add(failed); // a bound measured under saturation, not a verdict to re-run
        }
        if (probe.recheck()) {
            rechecked.add(failed); // failed twice, or a pass that failed its re-run: settled
        }
        failing.merge(failed, limiting, (earlier, now) -> now);
        lowestFailing = failing.firstKey();
        limitingMetric = failing.firstEntry().getValue();
        // A failed re-run of a pass: the earlier pass was luck, and the search goes on below it.
        passing.remove(probe.value());
    }

    private Double lowest() {
        return Double.isNaN(lowestFailing) ? null : lowestFailing;
    }

    private Double highestPassing() {
        return passing.stream()
                .filter(v -> Double.isNaN(lowestFailing) || v < lowestFailing)
                .max(Double::compare)
                .orElse(null);
    }

    private Step probe(double value, boolean recheck) {
        pending = new Step.Probe(value, recheck);
        return pending;
    }

    private Step finish(Double capacity, boolean confirmed, String reason) {
        done = new Result(capacity, firstFailure, lowest(), limitingMetric, confirmed, reason);
        return new Step.Done(done);
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT, "CapacitySearch[passing=%s, lowestFailing=%s, tried=%d]", passing, lowestFailing, tried);
    }
}
