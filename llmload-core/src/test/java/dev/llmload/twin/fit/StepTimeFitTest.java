package dev.llmload.twin.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.engine.batching.StepTimeProfile;
import dev.llmload.sim.engine.batching.VirtualEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The step-time fit by hand on small cases, and against the simulator's own scheduler run in
 * virtual time: its timelines are exact, so the fit must give back the hidden coefficients.
 */
class StepTimeFitTest {

    static final Map<String, Double> HIDDEN = Map.of(
            "step_ms", 6.0,
            "per_sequence_ms", 0.4,
            "context_ms_per_1k_tokens", 1.5,
            "prefill_ms_per_token", 0.03,
            "prefill_ms_per_token_sq", 2e-5);

    /** The simulator's step budget, which these engines keep. */
    static final int BUDGET = BatchingEngineConfig.defaults().maxNumBatchedTokens();

    @Test
    void weightedLeastSquaresMatchesTheHandComputedLine() {
        // y = a + b·x through (0,0), (1,1), (2,4): b = Σ(x−1)(y−5/3)/Σ(x−1)² = 2, a = 5/3 − 2 = −1/3.
        double[][] x = {{1, 0}, {1, 1}, {1, 2}};
        double[] beta = LeastSquares.solve(x, new double[] {0, 1, 4}, new double[] {1, 1, 1}, new int[] {0, 1, 2});
        assertThat(beta[0]).isCloseTo(-1.0 / 3, within(1e-12));
        assertThat(beta[1]).isCloseTo(2.0, within(1e-12));
        // Weight 0 on the last point: the line through the first two.
        beta = LeastSquares.solve(x, new double[] {0, 1, 4}, new double[] {1, 1, 0}, new int[] {0, 1, 2});
        assertThat(beta[0]).isCloseTo(0, within(1e-12));
        assertThat(beta[1]).isCloseTo(1, within(1e-12));
        // A column that repeats another cannot be solved for.
        assertThat(LeastSquares.solve(
                        new double[][] {{1, 1}, {1, 1}}, new double[] {1, 2}, new double[] {1, 1}, new int[] {0, 1}))
                .isNull();
    }

    @Test
    void theShapeOfAStepIsReadOffTheOtherRequestsByHand() {
        long ms = 1_000_000;
        RequestTimeline a = timeline(0, 100, 10 * ms, 20 * ms, 30 * ms, 40 * ms);
        RequestTimeline b = timeline(0, 50, 20 * ms, 30 * ms);
        RequestTimeline c = timeline(0, 200, 30 * ms, 40 * ms);
        double[][] shapes = shapes(List.of(a, b, c), 8192, 3 * ms);
        // Steps end at 10, 20, 30 and 40 ms. The one ending at 30: A and B decode in it (A read 100 + 2
        // tokens, B 50 + 1), C's prefill of 200 completes in it. Batch 3, context 102 + 51 + 200,
        // P = 200, two decoders.
        assertThat(shapes).hasNumberOfRows(4);
        assertThat(shapes[2]).containsExactly(1, 3, 0.353, 200, 40_000, 2);
        // The one ending at 40: B is done (its last token came at 30), C decodes (200 + 1).
        assertThat(shapes[3]).containsExactly(1, 2, 0.304, 0, 0, 2);
    }

    @Test
    void aPromptLongerThanWhatIsLeftOfTheStepBudgetIsPrefilledInChunks() {
        long ms = 1_000_000;
        // A budget of 1,000 tokens a step. D (100 tokens) is alone in the step ending at 10 ms. E (600)
        // and F (900), sent at 5 ms, join the next step: D's decode takes 1 token, E's prompt 600, and
        // F gets the 399 left; the step ending at 45 ms gives F's other 501 beside D's and E's decodes.
        RequestTimeline d = timeline(0, 100, 10 * ms, 30 * ms, 45 * ms, 55 * ms, 65 * ms);
        RequestTimeline e = timeline(5 * ms, 600, 30 * ms, 45 * ms, 55 * ms, 65 * ms);
        RequestTimeline f = timeline(5 * ms, 900, 45 * ms, 55 * ms, 65 * ms);
        double[][] shapes = shapes(List.of(d, e, f), 1000, 3 * ms);
        // Ending at 30: D decodes (100 + 1), E completes (600), F's first chunk (399 of its KV):
        // batch 3, context 1,100, P = 999.
        assertThat(shapes[1]).containsExactly(1, 3, 1.1, 999, 999 * 999, 1);
        // Ending at 45: D (100 + 2) and E (600 + 1) decode, F completes with its last 501 tokens,
        // reading all 900: batch 3, context 1,603, P = 501 (not F's whole prompt).
        assertThat(shapes[2]).containsExactly(1, 3, 1.603, 501, 501 * 501, 2);
        assertThat(shapes[3]).containsExactly(1, 3, 1.606, 0, 0, 3);

        // Sent at 12 ms, after the step ending at 30 began, F cannot have been in it: its whole
        // prompt is computed in the step of its first token.
        RequestTimeline late = timeline(12 * ms, 900, 45 * ms, 55 * ms, 65 * ms);
        shapes = shapes(List.of(d, e, late), 1000, 3 * ms);
        assertThat(shapes[1]).containsExactly(1, 2, 0.701, 600, 600 * 600, 1);
        assertThat(shapes[2]).containsExactly(1, 3, 1.603, 900, 900 * 900, 2);
    }

    @Test
    void virtualRunsGiveBackTheHiddenCoefficients() {
        List<List<RequestTimeline>> runs = new ArrayList<>();
        for (int concurrency : new int[] {1, 4, 12}) {
            runs.add(closedLoop(engine(8, 4096), concurrency, 80, 40, 1));
        }
        StepTimeFit fit = StepTimeFit.fit(runs, BUDGET, 3);
        assertFitGivesBack(fit);
    }

    @Test
    void virtualRunsWithChunkedPrefillsGiveBackTheHiddenCoefficients() {
        // A step budget of 512 tokens: prompts of 50 to 600 tokens that arrive beside others (or
        // longer than the budget) do not fit what is left of a step and are prefilled over two or three.
        BatchingEngineConfig chunked =
                engine(8, 4096).toBuilder().maxNumBatchedTokens(512).build();
        List<List<RequestTimeline>> runs = new ArrayList<>();
        for (int concurrency : new int[] {1, 4, 12}) {
            runs.add(closedLoop(chunked, concurrency, 80, 40, 1));
        }
        StepTimeFit fit = StepTimeFit.fit(runs, 512, 3);
        assertThat(fit.cutPrefills()[2])
                .as("prompts split in the run at concurrency 12")
                .isGreaterThanOrEqualTo(80 / 5);
        assertFitGivesBack(fit);
    }

    private static void assertFitGivesBack(StepTimeFit fit) {
        for (Estimate e : fit.estimates()) {
            assertThat(e.identified()).as(e.toString()).isTrue();
            assertThat(e.value()).as(e.name()).isCloseTo(HIDDEN.get(e.name()), within(0.01 * HIDDEN.get(e.name())));
            assertThat(e.low95()).isLessThanOrEqualTo(e.value());
            assertThat(e.high95()).isGreaterThanOrEqualTo(e.value());
        }
        assertThat(fit.dropped()).isZero();
        assertThat(Arrays.stream(fit.residualRmsMs()).max().orElseThrow()).isLessThan(0.01);
    }

    @Test
    void aFixedPromptLengthAtOneRequestAtATimeCannotSeparatePrefillFromTheStep() {
        // Alone, every step has batch 1 and either P = 300 or no prefill: batch and P² never move apart
        // from the constant and P.
        List<List<RequestTimeline>> runs = List.of(closedLoop(engine(8, 4096), 1, 30, 20, 0));
        StepTimeFit fit = StepTimeFit.fit(runs, BUDGET, 1);
        Estimate perSequence = fit.estimates().get(1);
        assertThat(perSequence.identified()).isFalse();
        assertThat(perSequence.why()).startsWith("not identified");
    }

    @Test
    void theBatchLimitIsIdentifiedOnlyWhenRequestsWaitedAtIt() {
        List<RunInput> runs = new ArrayList<>();
        runs.add(new RunInput("c4", closedLoop(engine(8, 4096), 4, 60, 30, 1), 0, List.of(), 1_000_000_000L));
        runs.add(new RunInput("c12", closedLoop(engine(8, 4096), 12, 60, 30, 1), 0, List.of(), 1_000_000_000L));
        double[] gaps = StepTimeFit.fit(
                        List.of(runs.get(0).requests(), runs.get(1).requests()), BUDGET, 0)
                .medianGapMs();
        CapacityFit.Result r = CapacityFit.fit(runs, gaps, 16);
        assertThat(r.peakBatch()).containsExactly(4, 8);
        assertThat(r.maxNumSeqs().identified()).isTrue();
        assertThat(r.maxNumSeqs().value()).isEqualTo(8);
        assertThat(r.maxNumSeqs().why()).contains("c12").doesNotContain("c4");

        CapacityFit.Result below = CapacityFit.fit(runs.subList(0, 1), new double[] {gaps[0]}, 16);
        assertThat(below.maxNumSeqs().identified()).isFalse();
        assertThat(below.maxNumSeqs().low95()).isEqualTo(4);
        assertThat(below.numBlocks().identified()).isFalse();
    }

    @Test
    void theKvCacheSizeComesFromTheServersUsageByHand() {
        long s = 1_000_000_000L;
        // One request of 320 prompt tokens, its tokens at 0, 2 s and 3 s: it holds ⌈321/16⌉ = 21
        // blocks through seconds 0 and 1, and ⌈322/16⌉ = 21 through second 2.
        RequestTimeline q = timeline(0, 320, 0, 2 * s, 3 * s);
        RunInput run = new RunInput("r", List.of(q), 0, List.of(0.2, 0.2, 0.21), 1_000_000_000L);
        CapacityFit.Result r = CapacityFit.fit(List.of(run), new double[] {1000}, 16);
        assertThat(r.kvSeconds()).containsExactly(3);
        // b = 21 each second against u = 0.2, 0.2, 0.21: numBlocks = Σ b·u / Σ u² = 21·0.61 / 0.1241.
        assertThat(r.numBlocks().value()).isCloseTo(21 * 0.61 / 0.1241, within(1e-9));
        assertThat(r.numBlocks().identified()).isTrue();
    }

    /** Each step's shape, {1, batch, context/1000, P, P², decoders}, for one run's requests. */
    private static double[][] shapes(List<RequestTimeline> requests, int budget, long toleranceNanos) {
        VisibleSteps steps = VisibleSteps.of(requests, toleranceNanos);
        return StepRows.shapes(steps, PrefillChunks.of(requests, steps, budget, steps.maxBatch()));
    }

    static BatchingEngineConfig engine(int maxNumSeqs, int numBlocks) {
        return BatchingEngineConfig.builder()
                .profile(StepTimeProfile.LINEAR)
                .coefficients(HIDDEN)
                .maxNumSeqs(maxNumSeqs)
                .numBlocks(numBlocks)
                .maxModelLen(2048)
                .build();
    }

    /**
     * A closed loop of {@code concurrency} in virtual time, prompts of 300 tokens (or from 50 to
     * 600 when {@code varied} is 1), {@code outputTokens} each.
     */
    static List<RequestTimeline> closedLoop(
            BatchingEngineConfig config, int concurrency, int requests, int outputTokens, int varied) {
        VirtualEngine engine = new VirtualEngine(config);
        SplittableRandom random = new SplittableRandom(concurrency);
        int[] submitted = {concurrency};
        for (int i = 0; i < concurrency; i++) {
            // Staggered, so the streams do not move in lockstep.
            engine.submit(i * 3_000_000L, prompt(random, varied), outputTokens, true);
        }
        List<VirtualEngine.Trace> traces = engine.run((trace, now) -> {
            if (submitted[0] < requests) {
                submitted[0]++;
                engine.submit(now, prompt(random, varied), outputTokens, true);
            }
        });
        List<RequestTimeline> out = new ArrayList<>();
        for (VirtualEngine.Trace t : traces) {
            int[] ones = new int[t.tokenNanos().length];
            Arrays.fill(ones, 1);
            out.add(RequestTimeline.of(t.arrivalNanos(), t.promptTokens(), t.tokenNanos(), ones));
        }
        return out;
    }

    private static int prompt(SplittableRandom random, int varied) {
        return varied == 0 ? 300 : 50 + random.nextInt(551);
    }

    private static RequestTimeline timeline(long sent, int input, long... tokens) {
        int[] ones = new int[tokens.length];
        Arrays.fill(ones, 1);
        return RequestTimeline.of(sent, input, tokens, ones);
    }
}
