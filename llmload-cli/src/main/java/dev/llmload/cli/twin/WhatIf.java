package dev.llmload.cli.twin;

import dev.llmload.config.Lengths;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.engine.batching.VirtualEngine;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import dev.llmload.workload.length.LengthDistribution;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Predictions from an engine profile, in virtual time: a workload is run through
 * {@link VirtualEngine} (the simulator's own scheduler, no sockets, no clock) and measured as a run
 * would be. Pure and seeded: the same profile and workload give the same answer.
 */
public final class WhatIf {

    private WhatIf() {}

    /**
     * A workload: an open loop at {@code ratePerS} (Poisson arrivals), or a closed loop of
     * {@code concurrency} streams. Each request's prompt and output lengths are drawn from
     * {@code inputTokens} and {@code outputTokens} (the distributions {@code llmload run} takes), and
     * exactly that many tokens are generated.
     */
    public record Workload(
            double ratePerS, int concurrency, Lengths inputTokens, Lengths outputTokens, int requests, long seed) {

        public Workload {
            if ((ratePerS > 0) == (concurrency > 0)) {
                throw new IllegalArgumentException("give either a rate or a concurrency");
            }
            if (inputTokens == null || outputTokens == null) {
                throw new IllegalArgumentException("give the input and output lengths");
            }
            if (requests < 1) {
                throw new IllegalArgumentException("the request count must be positive");
            }
        }

        /** The same requests as an open loop at {@code rate}. */
        public Workload atRate(double rate) {
            return new Workload(rate, 0, inputTokens, outputTokens, requests, seed);
        }

        /** The same lengths, {@code requests} of them in a closed loop of {@code concurrency}. */
        public Workload closedLoop(int concurrency, int requests) {
            return new Workload(0, concurrency, inputTokens, outputTokens, requests, seed);
        }
    }

    /**
     * What the workload would measure.
     *
     * @param completed          requests that finished
     * @param rejected           requests the engine refused (longer than the context)
     * @param durationS          first arrival to last end
     * @param requestsPerS       completed requests per second of {@code durationS}
     * @param outputTokensPerS   generated tokens per second of {@code durationS}
     */
    public record Prediction(
            int completed,
            int rejected,
            double durationS,
            double requestsPerS,
            double outputTokensPerS,
            Summary ttftMs,
            Summary itlMs,
            Summary tpotMs,
            Summary e2eMs) {

        /** This prediction's value of one SLO limit; null when it has none. */
        public Double value(PercentileSlo.Limit limit) {
            if (limit.statistic() == null) {
                int all = completed + rejected;
                return all == 0 ? null : rejected / (double) all;
            }
            Summary s = switch (limit.metric()) {
                case "ttft" -> ttftMs;
                case "itl" -> itlMs;
                case "tpot" -> tpotMs;
                default -> e2eMs;
            };
            return switch (limit.statistic()) {
                case "mean" -> s.mean();
                case "p50" -> s.p50();
                case "p90" -> s.p90();
                case "p95" -> s.p95();
                default -> s.p99();
            };
        }

        /** Whether every limit is met (a limit without a value is not). */
        public boolean meets(PercentileSlo slo) {
            for (PercentileSlo.Limit l : slo.limits()) {
                Double v = value(l);
                if (v == null || v > l.max()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The highest rate that meets the SLO, within 1%: found by doubling from {@code startRate} and
     * then bisecting, each rate run with the same seed (so the same arrivals, stretched), which
     * keeps the answer from jumping with the draws.
     *
     * @param rate       the answer; 0 when even {@code startRate / 2^20} misses the SLO
     * @param prediction the prediction at that rate; null when none met it
     * @param tried      rates tried
     */
    public record Capacity(double rate, Prediction prediction, int tried) {}

    /**
     * Runs {@code w} through an engine of {@code config}. The lengths come from a stream of their
     * own, so every rate of a capacity search asks for the same requests, and fixed lengths leave
     * the arrivals as they were.
     */
    public static Prediction predict(BatchingEngineConfig config, Workload w) {
        VirtualEngine engine = new VirtualEngine(config);
        SplittableRandom lengths = new SplittableRandom(w.seed()).split();
        LengthDistribution input = w.inputTokens().distribution();
        LengthDistribution output = w.outputTokens().distribution();
        if (w.ratePerS() > 0) {
            SplittableRandom random = new SplittableRandom(w.seed());
            double t = 0;
            for (int i = 0; i < w.requests(); i++) {
                t += -Math.log(1 - random.nextDouble()) / w.ratePerS();
                engine.submit((long) (t * 1e9), input.sample(lengths), output.sample(lengths), true);
            }
            return measure(engine.run((trace, now) -> {}));
        }
        int[] submitted = {Math.min(w.concurrency(), w.requests())};
        for (int i = 0; i < submitted[0]; i++) {
            engine.submit(0, input.sample(lengths), output.sample(lengths), true);
        }
        return measure(engine.run((trace, now) -> {
            if (submitted[0] < w.requests()) {
                submitted[0]++;
                engine.submit(now, input.sample(lengths), output.sample(lengths), true);
            }
        }));
    }

    public static Capacity capacity(BatchingEngineConfig config, Workload w, PercentileSlo slo, double startRate) {
        int tried = 0;
        double low = 0;
        Prediction atLow = null;
        double high = startRate;
        // Bracket: double while the rate passes, halve while it fails.
        Prediction p = predict(config, w.atRate(high));
        tried++;
        if (p.meets(slo)) {
            while (p.meets(slo) && tried < 40) {
                low = high;
                atLow = p;
                high *= 2;
                p = predict(config, w.atRate(high));
                tried++;
            }
        } else {
            while (tried < 21) {
                high /= 2;
                p = predict(config, w.atRate(high));
                tried++;
                if (p.meets(slo)) {
                    low = high;
                    atLow = p;
                    high *= 2;
                    break;
                }
            }
            if (atLow == null) {
                return new Capacity(0, null, tried);
            }
        }
        while (high - low > 0.01 * low && tried < 60) {
            double mid = (low + high) / 2;
            Prediction m = predict(config, w.atRate(mid));
            tried++;
            if (m.meets(slo)) {
                low = mid;
                atLow = m;
            } else {
                high = mid;
            }
        }
        return new Capacity(low, atLow, tried);
    }

    static Prediction measure(List<VirtualEngine.Trace> traces) {
        List<Double> ttft = new ArrayList<>();
        List<Double> itl = new ArrayList<>();
        List<Double> tpot = new ArrayList<>();
        List<Double> e2e = new ArrayList<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long tokens = 0;
        int rejected = 0;
        for (VirtualEngine.Trace t : traces) {
            if (!t.accepted()) {
                rejected++;
                continue;
            }
            first = Math.min(first, t.arrivalNanos());
            last = Math.max(last, t.endNanos());
            long[] ev = t.tokenNanos();
            tokens += t.outputTokens();
            if (ev.length == 0) {
                continue;
            }
            ttft.add((ev[0] - t.arrivalNanos()) / 1e6);
            e2e.add((t.endNanos() - t.arrivalNanos()) / 1e6);
            for (int i = 1; i < ev.length; i++) {
                itl.add((ev[i] - ev[i - 1]) / 1e6);
            }
            if (t.outputTokens() > 1) {
                tpot.add((ev[ev.length - 1] - ev[0]) / 1e6 / (t.outputTokens() - 1));
            }
        }
        int completed = traces.size() - rejected;
        double durationS = completed == 0 ? 0 : (last - first) / 1e9;
        return new Prediction(
                completed,
                rejected,
                durationS,
                durationS > 0 ? completed / durationS : 0,
                durationS > 0 ? tokens / durationS : 0,
                summary(ttft),
                summary(itl),
                summary(tpot),
                summary(e2e));
    }

    private static Summary summary(List<Double> values) {
        return Statistics.summarize(
                values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
