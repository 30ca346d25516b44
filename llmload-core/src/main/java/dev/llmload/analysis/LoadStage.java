package dev.llmload.analysis;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.llmload.config.Load;
import dev.llmload.record.RequestRecord;
import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.schedule.ConcurrencyStage;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Statistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One stage of a load that changes over the run ({@code saturation.stages} in {@code report.json}):
 * what was offered in it beside what was served. A ramp is where a server's limit shows as the
 * load passes it; these rows say at which load the latency climbed or the completions stopped
 * keeping up. Pure arithmetic on the records.
 *
 * <p><b>Stages.</b> {@code --stages} and a stepped {@code --concurrency-profile}: one row per
 * configured step. A ramp ({@code --ramp}, {@code --concurrency-profile ramp:...}): its time cut
 * into {@link #RAMP_SLICES} equal slices, then a hold from the ramp's end to the last arrival when
 * arrivals went on after it. Other loads (steady rates, bursts, traces, a fixed concurrency) have
 * no stages. A request belongs to the stage of its intended send, an arrival on a boundary to the
 * later stage; the last stage keeps its end.
 *
 * @param startS              the stage's start, seconds from the run's start (the clock of intended sends)
 * @param endS                its end
 * @param offered             what the offered load counts: req/s (open loop) or requests in flight (closed)
 * @param offeredFrom         the offered load at the stage's start
 * @param offeredTo           the same at its end (equal to {@code offeredFrom} for a step)
 * @param arrivals            measured requests whose intended send fell in the stage
 * @param succeeded           those of them that succeeded
 * @param achievedRequestRate measured requests that ended (any outcome) within the stage, per second of it
 * @param ttftP50Ms           of the stage's successful streamed requests; null without one
 * @param ttftP99Ms           the same; a p99 of fewer than 100 requests is an estimate
 * @param e2eP50Ms            of the stage's successful requests; null without one
 */
public record LoadStage(
        double startS,
        double endS,
        Offered offered,
        double offeredFrom,
        double offeredTo,
        long arrivals,
        long succeeded,
        double achievedRequestRate,
        Double ttftP50Ms,
        Double ttftP99Ms,
        Double e2eP50Ms) {

    /** A ramp's time is cut into this many equal stages. */
    static final int RAMP_SLICES = 4;

    /** What {@link #offeredFrom} and {@link #offeredTo} count; written in lower case. */
    public enum Offered {
        REQUEST_RATE,
        CONCURRENCY;

        @JsonValue
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param measured the run's measured (not warm-up) records, timings as offsets from the run's start
     * @return the stages in order, empty stages included; null for a load without stages or no records
     */
    public static List<LoadStage> of(List<RequestRecord> measured, Load load) {
        return of(RequestTimes.of(measured), load);
    }

    /** @return the stages of the measured requests of {@code times}, as {@link #of(List, Load)} */
    public static List<LoadStage> of(RequestTimes times, Load load) {
        List<Bound> bounds = bounds(load);
        if (bounds.isEmpty() || times.measuredCount() == 0) {
            return null;
        }
        long lastArrival = Long.MIN_VALUE;
        for (int i = 0; i < times.size(); i++) {
            if (!times.warmup(i)) {
                lastArrival = Math.max(lastArrival, times.intendedNanos(i));
            }
        }
        double lastArrivalS = lastArrival / 1e9;
        Bound lastBound = bounds.getLast();
        if (lastBound.open()) {
            // The hold after a ramp: up to the last arrival, or nothing when the arrivals ended with the ramp.
            bounds = new ArrayList<>(bounds.subList(0, bounds.size() - 1));
            if (lastArrivalS > lastBound.startS()) {
                bounds.add(new Bound(lastBound.startS(), lastArrivalS, lastBound.from(), lastBound.to(), false));
            }
        }
        Offered offered = load instanceof Load.Closed ? Offered.CONCURRENCY : Offered.REQUEST_RATE;
        List<LoadStage> stages = new ArrayList<>(bounds.size());
        for (int i = 0; i < bounds.size(); i++) {
            stages.add(stage(times, bounds.get(i), offered, i == bounds.size() - 1));
        }
        return List.copyOf(stages);
    }

    private static LoadStage stage(RequestTimes times, Bound b, Offered offered, boolean last) {
        long startNanos = Math.round(b.startS() * 1e9);
        long endNanos = Math.round(b.endS() * 1e9);
        long arrivals = 0;
        long succeeded = 0;
        long ended = 0;
        List<Double> ttft = new ArrayList<>();
        List<Double> e2e = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            if (times.warmup(i)) {
                continue;
            }
            long end = times.endNanos(i);
            if (end >= startNanos && (end < endNanos || last && end == endNanos)) {
                ended++;
            }
            long intended = times.intendedNanos(i);
            if (intended < startNanos || intended > endNanos || intended == endNanos && !last) {
                continue;
            }
            arrivals++;
            if (times.succeeded(i)) {
                succeeded++;
                if (!Double.isNaN(times.ttftMs(i))) {
                    ttft.add(times.ttftMs(i));
                }
                if (!Double.isNaN(times.e2eMs(i))) {
                    e2e.add(times.e2eMs(i));
                }
            }
        }
        double lengthS = b.endS() - b.startS();
        return new LoadStage(
                b.startS(),
                b.endS(),
                offered,
                b.from(),
                b.to(),
                arrivals,
                succeeded,
                lengthS > 0 ? ended / lengthS : 0,
                percentile(ttft, Percentile.P50),
                percentile(ttft, Percentile.P99),
                percentile(e2e, Percentile.P50));
    }

    private static Double percentile(List<Double> values, Percentile p) {
        if (values.isEmpty()) {
            return null;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return Statistics.percentile(sorted, p.value());
    }

    /**
     * A stage's time and offered load; {@code open} marks the hold after a ramp, which runs to the
     * last arrival.
     */
    private record Bound(double startS, double endS, double from, double to, boolean open) {}

    private static List<Bound> bounds(Load load) {
        return switch (load) {
            case Load.Open open ->
                switch (open.process()) {
                    case ArrivalProcess.Ramp ramp -> ramp(ramp.over(), ramp::rateAt, ramp.toRate());
                    case ArrivalProcess.Stages stages ->
                        steps(stages.stages(), ArrivalProcess.Stage::duration, ArrivalProcess.Stage::rate);
                    default -> List.of();
                };
            case Load.Closed closed ->
                switch (closed.plan()) {
                    case ConcurrencyPlan.Ramp ramp ->
                        ramp(ramp.over(), t -> ramp.concurrencyAt(Math.round(t * 1e9)), ramp.to());
                    case ConcurrencyPlan.Steps steps ->
                        steps(steps.stages(), ConcurrencyStage::duration, ConcurrencyStage::concurrency);
                    case ConcurrencyPlan.Fixed fixed -> List.of();
                    // A segment's share of a plan: the merged report of all segments shows the stages.
                    case ConcurrencyPlan.Part part -> List.of();
                };
            case Load.Trace trace -> List.of();
        };
    }

    /** {@link #RAMP_SLICES} equal slices of the ramp, then its open-ended hold. */
    private static List<Bound> ramp(Duration over, DoubleUnaryOperator loadAt, double held) {
        double overS = seconds(over);
        List<Bound> bounds = new ArrayList<>();
        for (int i = 0; i < RAMP_SLICES; i++) {
            double start = overS * i / RAMP_SLICES;
            double end = overS * (i + 1) / RAMP_SLICES;
            bounds.add(new Bound(start, end, loadAt.applyAsDouble(start), loadAt.applyAsDouble(end), false));
        }
        bounds.add(new Bound(overS, Double.POSITIVE_INFINITY, held, held, true));
        return bounds;
    }

    /** Steps one after the other, each at its own load. */
    private static <T> List<Bound> steps(List<T> stages, Function<T, Duration> duration, ToDoubleFunction<T> load) {
        List<Bound> bounds = new ArrayList<>(stages.size());
        double start = 0;
        for (T stage : stages) {
            double end = start + seconds(duration.apply(stage));
            bounds.add(new Bound(start, end, load.applyAsDouble(stage), load.applyAsDouble(stage), false));
            start = end;
        }
        return bounds;
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
