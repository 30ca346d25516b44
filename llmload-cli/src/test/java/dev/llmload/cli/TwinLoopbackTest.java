package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.cli.twin.TwinFit;
import dev.llmload.cli.twin.WhatIf;
import dev.llmload.config.Lengths;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.twin.RunLoader;
import dev.llmload.twin.fit.Estimate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The digital twin, validated against a server whose engine is known: the built-in simulator with
 * hidden step-time coefficients and limits, driven over loopback by real runs (a sweep at three
 * concurrencies), then {@code llmload fit} on the sweep. Every parameter the fit calls identified
 * must be within 10% of the hidden one, and the profile must predict a fourth, held-out run's TTFT
 * and ITL (p50 within 15%, p99 within 25%) and the engine's capacity under an SLO (within 15% of
 * the hidden engine's own, both found in virtual time).
 */
@Tag("loopback")
// Token gaps measured on the wall clock: a neighbour's load while the runs go on stretches them.
@Tag("timing")
// Four runs of real load, about 45 s.
@Tag("long")
class TwinLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final Map<String, Double> HIDDEN = Map.of(
            "step_ms", 12.0,
            "per_sequence_ms", 0.8,
            "context_ms_per_1k_tokens", 3.0,
            "prefill_ms_per_token", 0.04,
            "prefill_ms_per_token_sq", 2e-5);
    static final int HIDDEN_MAX_NUM_SEQS = 8;
    static final int HIDDEN_NUM_BLOCKS = 300;

    static final String SIM_TEXT = """
            seed: 1
            maxModelLen: 4096
            batching:
              profile: linear
              coefficients: {step_ms: 12, per_sequence_ms: 0.8, context_ms_per_1k_tokens: 3,
                             prefill_ms_per_token: 0.04, prefill_ms_per_token_sq: 2.0e-5}
              maxNumSeqs: 8
              numBlocks: 300
            """;

    /** The fitted runs' prompts vary, so that prefill and context costs move apart from the batch size. */
    private static final String[] FITTED = {
        "--num-requests",
        "48",
        "--input-tokens",
        "uniform:100:700",
        "--output-tokens",
        "24",
        "--scrape-interval",
        "250ms"
    };

    /**
     * The held-out run asks something else: an open loop (Poisson arrivals) of prompts of 200 to
     * 400 tokens, at a rate between the fitted loads. Not one length for all: then every step that
     * prefills one prompt takes the same time and every step that prefills two another, 20 ms
     * longer, and the ITL p99 falls on whichever side of that cliff 1% of the gaps happen to lie
     * (measured 42 and 68 ms in two runs of the same engine and arrivals' rate, against 55 ms
     * predicted both times).
     */
    private static final String[] HELD_OUT = {
        "--num-requests",
        "96",
        "--input-tokens",
        "uniform:200:400",
        "--output-tokens",
        "24",
        "--scrape-interval",
        "250ms"
    };

    private static final double HELD_OUT_RATE = 6;

    @TempDir
    Path dir;

    @Test
    void theFitRecoversTheHiddenEngineAndPredictsAHeldOutLoad() throws Exception {
        Path sim = Files.writeString(dir.resolve("sim.yaml"), SIM_TEXT);
        Path sweep = dir.resolve("sweep");
        CapturedRun swept = CapturedRun.of(
                new String[] {
                    "sweep", "--concurrency", "2,6,12", "--sim-config", sim.toString(), "--output-dir", sweep.toString()
                },
                FITTED);
        assertThat(swept.exitCode()).as(swept.err()).isZero();

        Path profile = dir.resolve("profile.yaml");
        CapturedRun fitted = CapturedRun.of("fit", sweep.toString(), "--output", profile.toString());
        assertThat(fitted.exitCode()).as(fitted.err()).isZero();
        assertThat(fitted.out()).contains("step_ms = ", "What each run constrained:", "replayed");
        assertThat(dir.resolve("profile-fit.txt")).exists();

        // The same fit through the API, for its estimates (the command wrote the same numbers).
        TwinFit fit = TwinFit.fit(
                RunLoader.load(List.of(sweep)), BatchingEngineConfig.defaults().maxNumBatchedTokens(), 0);
        assertThat(Files.readString(profile)).isEqualTo(fit.profileYaml());
        StringBuilder identified = new StringBuilder();
        for (Estimate e : fit.estimates()) {
            // The cache size rests on a dozen per-second readings of the server's KV use here: its
            // interval is about ±10%, at the edge of identified, so it is not held to 10% in this
            // short test (bench/twin.sh measures it at full size; docs/simulator.md, "Validation").
            if (!e.identified() || e.name().equals("numBlocks")) {
                continue;
            }
            identified.append(e.name()).append(' ');
            double truth = truth(e.name());
            assertThat(e.value()).as("%s%n%s", e, fit.report()).isCloseTo(truth, within(0.10 * truth));
        }
        // What these runs were built to pin down: the decode and prefill costs, and the batch limit
        // (the concurrency of 12 kept requests waiting at 8). The cache size rests on a dozen
        // per-second readings of the server's KV use here, too few to pin it (the fit says so when
        // they scatter); bench/twin.sh's longer runs are where it is measured.
        assertThat(identified.toString())
                .as(fit.report())
                .contains(
                        "step_ms",
                        "per_sequence_ms",
                        "context_ms_per_1k_tokens",
                        "prefill_ms_per_token ",
                        "prefill_ms_per_token_sq",
                        "maxNumSeqs");

        // The held-out load, measured, against the profile's prediction for the same arrivals: the
        // run's own send times and lengths through the fitted engine (a p99 of 96 Poisson arrivals
        // depends on the draw far more than on the engine, so the draw is the run's own).
        Path heldOut = dir.resolve("r6");
        CapturedRun run = CapturedRun.of(
                new String[] {
                    "run",
                    "--request-rate",
                    String.valueOf(HELD_OUT_RATE),
                    "--sim-config",
                    sim.toString(),
                    "--output-dir",
                    heldOut.toString()
                },
                HELD_OUT);
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode results =
                JSON.readTree(heldOut.resolve("report.json").toFile()).get("results");
        int inputTokens = (int) Math.round(results.at("/input_tokens/mean").asDouble());
        BatchingEngineConfig twin = SimConfig.load(profile, Map.of()).batching();
        TwinFit.Replay p = TwinFit.replay(twin, RunLoader.load(List.of(heldOut)).get(0));
        String context = fit.report() + "\nheld out " + p;
        assertThat(p.predictedTtftP50Ms())
                .as(context)
                .isCloseTo(p.observedTtftP50Ms(), within(0.15 * p.observedTtftP50Ms()));
        assertThat(p.predictedTtftP99Ms())
                .as(context)
                .isCloseTo(p.observedTtftP99Ms(), within(0.25 * p.observedTtftP99Ms()));
        assertThat(p.predictedItlP50Ms())
                .as(context)
                .isCloseTo(p.observedItlP50Ms(), within(0.15 * p.observedItlP50Ms()));
        // The run's report measures the same requests the replay read.
        assertThat(p.observedTtftP50Ms()).isCloseTo(results.at("/ttft_ms/p50").asDouble(), within(0.01));

        // Capacity under an SLO: the twin's against the hidden engine's own, same workload and search.
        PercentileSlo slo = PercentileSlo.parse("p99_ttft:300,p99_itl:80");
        WhatIf.Workload open = new WhatIf.Workload(
                1,
                0,
                Lengths.parse("--input-tokens", String.valueOf(inputTokens)),
                Lengths.parse("--output-tokens", "24"),
                400,
                0);
        BatchingEngineConfig hidden = SimConfig.load(sim, Map.of()).batching();
        double truth = WhatIf.capacity(hidden, open, slo, 10).rate();
        double twinCapacity = WhatIf.capacity(twin, open, slo, 10).rate();
        assertThat(truth).isPositive();
        assertThat(twinCapacity).as(context).isCloseTo(truth, within(0.15 * truth));

        CapturedRun whatif = CapturedRun.of(
                "whatif",
                "--profile",
                profile.toString(),
                "--concurrency",
                "4",
                "--input-tokens",
                String.valueOf(inputTokens),
                "--output-tokens",
                "24",
                "--num-requests",
                "48",
                "--slo",
                "p99_ttft:300,p99_itl:80");
        assertThat(whatif.exitCode()).as(whatif.err()).isZero();
        assertThat(whatif.out()).contains("Predicted for concurrency 4", "ttft", "Capacity under p99_ttft:300");
        // Last: the ITL tail (steps that prefill several prompts at once), the weakest of these: the
        // shared host's stalls and late wake-ups of the engine's thread stretch some real steps
        // (docs/simulator.md, "Validation"). Judged only where the simulator kept its own time: when
        // its own telemetry has its token writes late by a quarter of the measured tail at p99, that
        // lateness alone can make up the 25% allowed, and no engine model predicts it.
        JsonNode writeDelayP99 = JSON.readTree(heldOut.resolve("report.json").toFile())
                .at("/telemetry/simulator/token_write_delay_ms/p99");
        assumeTrue(
                !writeDelayP99.isNumber() || writeDelayP99.asDouble() < 0.25 * p.observedItlP99Ms(),
                () -> "the simulator wrote tokens " + writeDelayP99.asDouble()
                        + " ms late at p99 on this host, against " + "a measured ITL p99 of " + p.observedItlP99Ms()
                        + " ms: the tail is the host's");
        assertThat(p.predictedItlP99Ms())
                .as(context)
                .isCloseTo(p.observedItlP99Ms(), within(0.25 * p.observedItlP99Ms()));
    }

    private static double truth(String name) {
        return switch (name) {
            case "maxNumSeqs" -> HIDDEN_MAX_NUM_SEQS;
            case "numBlocks" -> HIDDEN_NUM_BLOCKS;
            default -> HIDDEN.get(name);
        };
    }
}
