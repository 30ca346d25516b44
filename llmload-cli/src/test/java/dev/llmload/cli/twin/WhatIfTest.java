package dev.llmload.cli.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.config.Lengths;
import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.engine.batching.StepTimeProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What-if predictions in virtual time, checked by hand on an engine whose steps are simple sums. */
class WhatIfTest {

    /** A step takes 10 ms plus 0.1 ms per prompt token it computes: nothing else costs. */
    private static final BatchingEngineConfig ENGINE = BatchingEngineConfig.builder()
            .profile(StepTimeProfile.LINEAR)
            .coefficients(Map.of(
                    "step_ms", 10.0,
                    "per_sequence_ms", 0.0,
                    "context_ms_per_1k_tokens", 0.0,
                    "prefill_ms_per_token", 0.1,
                    "prefill_ms_per_token_sq", 0.0))
            .build();

    @Test
    void lengthsAreDrawnPerRequestFromTheDistributionsRunTakes() {
        // One request at a time: its TTFT is its prefill step, 10 + 0.1·ISL ms, so 20 to 40 ms for
        // prompts of 100 to 300 tokens; then one 10 ms step per further token, so E2E − TTFT is
        // 10 to 40 ms for outputs of 2 to 5 tokens, and ITL is always 10 ms.
        WhatIf.Workload w = new WhatIf.Workload(
                0,
                1,
                Lengths.parse("--input-tokens", "uniform:100:300"),
                Lengths.parse("--output-tokens", "uniform:2:5"),
                400,
                7);
        WhatIf.Prediction p = WhatIf.predict(ENGINE, w);
        assertThat(p.completed()).isEqualTo(400);
        assertThat(p.ttftMs().min()).isGreaterThanOrEqualTo(20.0);
        assertThat(p.ttftMs().max()).isLessThanOrEqualTo(40.0);
        // Uniform: the middle prompt (200 tokens, 30 ms) is the median, and the spread is the whole range.
        assertThat(p.ttftMs().p50()).isCloseTo(30.0, within(1.5));
        assertThat(p.ttftMs().max() - p.ttftMs().min()).isGreaterThan(19.0);
        assertThat(p.itlMs().min()).isCloseTo(10.0, within(1e-6));
        assertThat(p.itlMs().max()).isCloseTo(10.0, within(1e-6));
        // 400 requests of 2 to 5 tokens: (2 + 5) / 2 · 400 = 1,400 tokens, give or take the draw.
        assertThat(p.outputTokensPerS() * p.durationS()).isCloseTo(1400, within(100.0));
        assertThat(p.tpotMs().min()).isCloseTo(10.0, within(1e-6));

        // The same seed draws the same requests; fixed lengths are every request's.
        assertThat(WhatIf.predict(ENGINE, w).ttftMs()).isEqualTo(p.ttftMs());
        WhatIf.Prediction fixed = WhatIf.predict(
                ENGINE,
                new WhatIf.Workload(
                        0, 1, Lengths.parse("--input-tokens", "200"), Lengths.parse("--output-tokens", "3"), 10, 7));
        assertThat(fixed.ttftMs().min()).isCloseTo(30.0, within(1e-6));
        assertThat(fixed.ttftMs().max()).isCloseTo(30.0, within(1e-6));
        assertThat(fixed.e2eMs().p50()).isCloseTo(50.0, within(1e-6));
    }
}
