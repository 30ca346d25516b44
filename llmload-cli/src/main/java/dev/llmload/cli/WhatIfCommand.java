package dev.llmload.cli;

import dev.llmload.cli.twin.WhatIf;
import dev.llmload.config.Lengths;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.stats.Summary;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code llmload whatif}: what a workload would measure against an engine profile, computed in
 * virtual time by the simulator's own scheduler, with no server and no sockets.
 */
@Command(
        name = "whatif",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Predict what a workload would measure against an engine profile (from 'llmload fit', or any simulator",
            "config), by running the simulated engine in virtual time: TTFT, ITL, TPOT and E2E percentiles, throughput,",
            "and with --slo the highest request rate that meets it. No server, no sockets. See docs/simulator.md."
        })
public final class WhatIfCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--profile",
            required = true,
            paramLabel = "FILE",
            description = "engine profile or simulator config (YAML or JSON)")
    Path profile;

    static final class LoadChoice {
        @Option(names = "--rate", paramLabel = "REQ_PER_S", description = "open loop: Poisson arrivals at this rate")
        Double rate;

        @Option(names = "--concurrency", paramLabel = "N", description = "closed loop: N requests in flight")
        Integer concurrency;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    LoadChoice load;

    @Option(
            names = "--input-tokens",
            paramLabel = "DIST",
            defaultValue = "512",
            description = "prompt length, as 'llmload run' takes it: N, uniform:MIN:MAX, normal:MEAN:STD, "
                    + "lognormal:MEAN:STD, file:PATH (default ${DEFAULT-VALUE})")
    String inputTokens;

    @Option(
            names = "--output-tokens",
            paramLabel = "DIST",
            defaultValue = "128",
            description = "tokens each request generates, a length as --input-tokens (default ${DEFAULT-VALUE})")
    String outputTokens;

    @Option(
            names = "--num-requests",
            defaultValue = "1000",
            description = "requests in the workload (default ${DEFAULT-VALUE})")
    int requests;

    @Option(
            names = "--slo",
            paramLabel = "STAT_METRIC:MS,...",
            description = "limits on the distributions, e.g. p99_ttft:500,p99_itl:50: also search the highest "
                    + "Poisson rate that meets them")
    String slo;

    @Option(names = "--seed", defaultValue = "0", description = "seed of the arrivals (default ${DEFAULT-VALUE})")
    long seed;

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    @Override
    public Integer call() {
        if (!Files.isRegularFile(profile)) {
            throw new UsageException("--profile: no such file: " + profile);
        }
        PercentileSlo limits = null;
        if (slo != null) {
            try {
                limits = PercentileSlo.parse(slo);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--slo: " + e.getMessage());
            }
        }
        if (load == null && limits == null) {
            throw new UsageException(
                    "give --rate or --concurrency (a workload to predict), or --slo (a capacity to find)");
        }
        BatchingEngineConfig engine;
        WhatIf.Workload workload;
        try {
            engine = SimConfig.load(profile, Map.of("speedup", 1.0, "jitter", 0.0))
                    .batching();
            double rate = load == null || load.rate == null ? 0 : load.rate;
            int concurrency = load == null || load.concurrency == null ? 0 : load.concurrency;
            workload = new WhatIf.Workload(
                    rate,
                    concurrency == 0 && rate == 0 ? 1 : concurrency,
                    Lengths.parse("--input-tokens", inputTokens),
                    Lengths.parse("--output-tokens", outputTokens),
                    requests,
                    seed);
        } catch (RuntimeException e) {
            throw new UsageException(e.getMessage());
        }
        if (load != null) {
            WhatIf.Prediction p = WhatIf.predict(engine, workload);
            out().println("Predicted for " + describe(workload) + ":");
            print(p);
        }
        if (limits != null) {
            // Start the search near what the engine completes with all of its batch busy.
            WhatIf.Prediction busy =
                    WhatIf.predict(engine, workload.closedLoop(engine.maxNumSeqs(), Math.min(requests, 500)));
            double start = Math.max(0.01, busy.requestsPerS() / 2);
            WhatIf.Capacity c = WhatIf.capacity(engine, workload.atRate(start), limits, start);
            out().println();
            if (c.prediction() == null) {
                out().printf(
                                Locale.ROOT,
                                "Capacity under %s: none (even %.4g req/s misses it)%n",
                                slo,
                                start / (1 << 20));
            } else {
                out().printf(
                                Locale.ROOT,
                                "Capacity under %s: %.3g req/s (%d rates tried); there:%n",
                                slo,
                                c.rate(),
                                c.tried());
                print(c.prediction());
            }
        }
        return 0;
    }

    private static String describe(WhatIf.Workload w) {
        String load = w.ratePerS() > 0
                ? String.format(Locale.ROOT, "%.4g req/s (Poisson)", w.ratePerS())
                : "concurrency " + w.concurrency();
        return String.format(
                Locale.ROOT,
                "%s, %d requests of %s input and %s output tokens",
                load,
                w.requests(),
                w.inputTokens(),
                w.outputTokens());
    }

    private void print(WhatIf.Prediction p) {
        out().printf(
                        Locale.ROOT,
                        "  %d requests in %.2f s: %.3g req/s, %.4g output tokens/s%s%n",
                        p.completed(),
                        p.durationS(),
                        p.requestsPerS(),
                        p.outputTokensPerS(),
                        p.rejected() > 0 ? ", " + p.rejected() + " refused (longer than the context)" : "");
        out().println("  metric        mean       p50       p90       p99  (ms)");
        row("ttft", p.ttftMs());
        row("itl", p.itlMs());
        row("tpot", p.tpotMs());
        row("e2e", p.e2eMs());
    }

    private void row(String name, Summary s) {
        if (s.count() == 0) {
            out().printf(Locale.ROOT, "  %-8s %9s%n", name, "-");
            return;
        }
        out().printf(Locale.ROOT, "  %-8s %9.2f %9.2f %9.2f %9.2f%n", name, s.mean(), s.p50(), s.p90(), s.p99());
    }
}
