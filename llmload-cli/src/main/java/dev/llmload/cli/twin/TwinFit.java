package dev.llmload.cli.twin;

import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.engine.batching.StepTimeProfile;
import dev.llmload.sim.engine.batching.VirtualEngine;
import dev.llmload.stats.Statistics;
import dev.llmload.twin.fit.CapacityFit;
import dev.llmload.twin.fit.Estimate;
import dev.llmload.twin.fit.RequestTimeline;
import dev.llmload.twin.fit.RunInput;
import dev.llmload.twin.fit.StepTimeFit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A fitted engine profile: the step-time fit and the capacity limits from the runs, the engine
 * configuration they make, and each run replayed through that engine in virtual time, for the
 * fit report's residuals. Pure (the runs are read before); seeded.
 *
 * @param runs     the runs fitted
 * @param steps    the step-time coefficients
 * @param capacity the most running sequences and the KV cache size
 * @param config   the engine that {@code llmload sim --profile} and {@code whatif} run
 * @param replays  per run: what the fitted engine predicts for the run's own requests
 */
public record TwinFit(
        List<RunInput> runs,
        StepTimeFit steps,
        CapacityFit.Result capacity,
        BatchingEngineConfig config,
        List<Replay> replays) {

    /** vLLM's default KV block size, which the fit assumes. */
    public static final int BLOCK_SIZE = 16;

    /**
     * One run against the fitted engine: its requests sent at their own times, with their own
     * prompt and output lengths.
     */
    public record Replay(
            String run,
            int requests,
            double observedTtftP50Ms,
            double predictedTtftP50Ms,
            double observedItlP50Ms,
            double predictedItlP50Ms,
            double observedE2eP50Ms,
            double predictedE2eP50Ms,
            double observedTtftP99Ms,
            double predictedTtftP99Ms,
            double observedItlP99Ms,
            double predictedItlP99Ms) {}

    /**
     * Fits the runs of a server whose engine computes at most {@code maxNumBatchedTokens} tokens
     * per step (vLLM's {@code --max-num-batched-tokens}: longer prefills are split into chunks).
     */
    public static TwinFit fit(List<RunInput> runs, int maxNumBatchedTokens, long seed) {
        List<List<RequestTimeline>> requests = new ArrayList<>();
        for (RunInput r : runs) {
            requests.add(r.requests());
        }
        StepTimeFit steps = StepTimeFit.fit(requests, maxNumBatchedTokens, seed);
        CapacityFit.Result capacity = CapacityFit.fit(runs, steps.medianGapMs(), BLOCK_SIZE);
        BatchingEngineConfig config = config(steps, capacity);
        List<Replay> replays = new ArrayList<>();
        for (RunInput r : runs) {
            replays.add(replay(config, r));
        }
        return new TwinFit(runs, steps, capacity, config, replays);
    }

    /**
     * The engine: the fitted coefficients and the step budget the fit assumed, and each limit at
     * its estimate when identified; a limit the runs could not identify keeps the simulator's
     * default when that is above what the runs saw, else what they saw (a lower bound).
     */
    static BatchingEngineConfig config(StepTimeFit steps, CapacityFit.Result capacity) {
        BatchingEngineConfig defaults = BatchingEngineConfig.defaults();
        Map<String, Double> coefficients = new LinkedHashMap<>();
        for (Estimate e : steps.estimates()) {
            coefficients.put(e.name(), e.value());
        }
        int maxNumSeqs = limit(capacity.maxNumSeqs(), defaults.maxNumSeqs());
        int numBlocks = limit(capacity.numBlocks(), defaults.numBlocks());
        int usableTokens = (numBlocks - (int) (defaults.watermark() * numBlocks)) * BLOCK_SIZE;
        return defaults.toBuilder()
                .profile(StepTimeProfile.LINEAR)
                .coefficients(coefficients)
                .maxNumSeqs(maxNumSeqs)
                .maxNumBatchedTokens(steps.maxNumBatchedTokens())
                .numBlocks(numBlocks)
                .blockSize(BLOCK_SIZE)
                .maxModelLen(Math.min(defaults.maxModelLen(), usableTokens))
                .build();
    }

    private static int limit(Estimate e, int fallback) {
        int value = (int) Math.max(1, Math.round(e.value()));
        return e.identified() ? value : Math.max(value, fallback);
    }

    /** {@code run}'s requests sent through {@code config}'s engine at their own times, with their own lengths. */
    public static Replay replay(BatchingEngineConfig config, RunInput run) {
        VirtualEngine engine = new VirtualEngine(config);
        List<RequestTimeline> reqs = run.requests();
        long origin = reqs.stream().mapToLong(RequestTimeline::sentNanos).min().orElse(0);
        for (RequestTimeline r : reqs) {
            int tokens = r.tokensThrough()[r.tokensThrough().length - 1];
            engine.submit(r.sentNanos() - origin, r.inputTokens(), tokens, true);
        }
        WhatIf.Prediction p = WhatIf.measure(engine.run((trace, now) -> {}));
        List<Double> ttft = new ArrayList<>();
        List<Double> itl = new ArrayList<>();
        List<Double> e2e = new ArrayList<>();
        for (RequestTimeline r : reqs) {
            ttft.add((r.firstTokenNanos() - r.sentNanos()) / 1e6);
            e2e.add((r.lastTokenNanos() - r.sentNanos()) / 1e6);
            for (int i = 1; i < r.tokenNanos().length; i++) {
                itl.add((r.tokenNanos()[i] - r.tokenNanos()[i - 1]) / 1e6);
            }
        }
        return new Replay(
                run.name(),
                reqs.size(),
                p50(ttft),
                p.ttftMs().p50(),
                p50(itl),
                p.itlMs().p50(),
                p50(e2e),
                p.e2eMs().p50(),
                percentile(ttft, 99),
                p.ttftMs().p99(),
                percentile(itl, 99),
                p.itlMs().p99());
    }

    /** The profile file: a simulator configuration, with the fit's figures as comments. */
    public String profileYaml() {
        StringBuilder y = new StringBuilder();
        y.append("# Engine profile fitted by llmload fit from ")
                .append(runs.size())
                .append(runs.size() == 1 ? " run" : " runs")
                .append(". A simulator configuration:\n# llmload sim --profile FILE serves it, "
                        + "llmload whatif --profile FILE predicts with it.\n");
        for (Estimate e : estimates()) {
            y.append("# ").append(line(e)).append('\n');
        }
        y.append("engine: batching\n");
        y.append("maxModelLen: ").append(config.maxModelLen()).append('\n');
        y.append("batching:\n");
        y.append("  profile: linear\n");
        y.append("  coefficients:\n");
        config.coefficients().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(c -> y.append("    ")
                        .append(c.getKey())
                        .append(": ")
                        .append(number(c.getValue()))
                        .append('\n'));
        y.append("  maxNumSeqs: ").append(config.maxNumSeqs()).append('\n');
        y.append("  maxNumBatchedTokens: ").append(config.maxNumBatchedTokens()).append('\n');
        y.append("  numBlocks: ").append(config.numBlocks()).append('\n');
        y.append("  blockSize: ").append(config.blockSize()).append('\n');
        return y.toString();
    }

    /** Every estimate: the step-time coefficients, then the two limits. */
    public List<Estimate> estimates() {
        List<Estimate> all = new ArrayList<>(steps.estimates());
        all.add(capacity.maxNumSeqs());
        all.add(capacity.numBlocks());
        return all;
    }

    /** The estimates that the runs could not pin down. */
    public List<Estimate> unidentified() {
        return estimates().stream().filter(e -> !e.identified()).toList();
    }

    /** The fit report, for people: estimates, which runs constrained what, residuals, warnings. */
    public String report() {
        StringBuilder r = new StringBuilder();
        r.append("Engine profile fitted from ").append(runs.size()).append(runs.size() == 1 ? " run\n" : " runs\n\n");
        r.append("Parameters (estimate, standard error, 95% interval):\n");
        for (Estimate e : estimates()) {
            r.append("  ").append(line(e)).append('\n');
            if (!e.why().isEmpty()) {
                r.append("      ").append(e.why()).append('\n');
            }
        }
        r.append("\nWhat each run constrained:\n");
        for (int i = 0; i < runs.size(); i++) {
            r.append(String.format(
                    Locale.ROOT,
                    "  %s: %d requests, %d inter-token gaps (step-time residual RMS %.3f ms); batch spread %.0f, "
                            + "context spread %.1fk tokens, prefill spread %.0f tokens, %d prefills split at the "
                            + "step budget; peak batch %d, %.0f ms at it with requests waiting; peak KV %d blocks%s\n",
                    runs.get(i).name(),
                    runs.get(i).requests().size(),
                    steps.rowsPerRun()[i],
                    steps.residualRmsMs()[i],
                    steps.ranges()[1][i],
                    steps.ranges()[2][i],
                    steps.ranges()[3][i],
                    steps.cutPrefills()[i],
                    capacity.peakBatch()[i],
                    capacity.queuedAtPeakMs()[i],
                    capacity.peakBlocks()[i],
                    capacity.kvSeconds()[i] > 0
                            ? "; " + capacity.kvSeconds()[i] + " seconds of server KV use"
                            : "; no server KV use"));
        }
        if (steps.dropped() > 0) {
            r.append("  ").append(steps.dropped()).append(" outlying gaps left out (client or host stalls)\n");
        }
        r.append("\nEach run replayed through the fitted engine (p50, observed -> predicted):\n");
        for (Replay p : replays) {
            r.append(String.format(
                    Locale.ROOT,
                    "  %s: TTFT %.2f -> %.2f ms, ITL %.2f -> %.2f ms, E2E %.1f -> %.1f ms\n",
                    p.run(),
                    p.observedTtftP50Ms(),
                    p.predictedTtftP50Ms(),
                    p.observedItlP50Ms(),
                    p.predictedItlP50Ms(),
                    p.observedE2eP50Ms(),
                    p.predictedE2eP50Ms()));
        }
        List<Estimate> missing = unidentified();
        int unexplained = Arrays.stream(steps.unexplainedSteps()).sum();
        if (!missing.isEmpty() || unexplained > 0) {
            r.append("\nWarnings:\n");
        }
        if (unexplained > 0) {
            r.append(String.format(
                    Locale.ROOT,
                    "  %d steps gave first tokens to more prompt tokens than a step budget of %d leaves: the server's "
                            + "--max-num-batched-tokens is likely larger; pass it to fit with --max-num-batched-tokens\n",
                    unexplained,
                    steps.maxNumBatchedTokens()));
        }
        if (!missing.isEmpty()) {
            for (Estimate e : missing) {
                r.append("  ").append(e.name()).append(": ").append(e.why()).append('\n');
            }
            r.append("  The profile uses ")
                    .append(String.format(
                            Locale.ROOT, "maxNumSeqs %d and numBlocks %d", config.maxNumSeqs(), config.numBlocks()))
                    .append("; predictions that lean on an unidentified parameter are guesses.\n");
        }
        return r.toString();
    }

    private static String line(Estimate e) {
        String interval = Double.isInfinite(e.high95())
                ? String.format(Locale.ROOT, "at least %s", number(e.low95()))
                : Double.isNaN(e.low95())
                        ? "no interval"
                        : String.format(Locale.ROOT, "[%s, %s]", number(e.low95()), number(e.high95()));
        String se = Double.isNaN(e.standardError()) ? "" : " ± " + number(e.standardError());
        return String.format(
                Locale.ROOT,
                "%s = %s%s %s%s",
                e.name(),
                number(e.value()),
                se,
                interval,
                e.identified() ? "" : " (not identified)");
    }

    private static String number(double v) {
        return new java.math.BigDecimal(String.format(Locale.ROOT, "%.6g", v))
                .stripTrailingZeros()
                .toPlainString();
    }

    private static double p50(List<Double> values) {
        return percentile(values, 50);
    }

    private static double percentile(List<Double> values, double p) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length == 0 ? Double.NaN : Statistics.percentile(v, p);
    }
}
