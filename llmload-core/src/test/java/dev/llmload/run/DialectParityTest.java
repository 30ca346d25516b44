package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same seeded workload through the simulator's chat, completions and each native streaming
 * dialect: the engine behind them is the same, so every dialect must give the same token counts,
 * and TTFT and ITL p50 within 5% of chat's. A dialect the simulator does not serve (its path
 * answers 404 to the test request) is skipped with that reason.
 */
@Tag("loopback")
@Tag("timing")
class DialectParityTest {

    private static final double TTFT_MS = 40;
    private static final double ITL_MS = 25;
    private static final int REQUESTS = 24;
    private static final int OUTPUT_TOKENS = 12;
    private static final List<ApiKind> DIALECTS = List.of(ApiKind.COMPLETIONS, ApiKind.TGI, ApiKind.TRITON,
            ApiKind.OLLAMA, ApiKind.OLLAMA_CHAT, ApiKind.LLAMACPP, ApiKind.SGLANG, ApiKind.ANTHROPIC, ApiKind.RESPONSES);

    @TempDir
    Path dir;

    private static RunConfig config(String url, ApiKind api, Path out) {
        return new RunConfig(url, api, null, true, true, LoadSpec.closed(4), (long) REQUESTS, null, 0, null,
                DataSpec.synthetic("32", String.valueOf(OUTPUT_TOKENS), "cl100k_base"), 7, Timeouts.defaults(),
                TelemetrySpec.auto(), Duration.ofSeconds(5), out, Map.of(), List.of(), false, 2, null, null, List.of());
    }

    @Test
    void everyDialectOfTheSimulatorGivesTheSameCountsAndTimings() throws Exception {
        try (SimServer sim = SimulatorRuns.fixedSimulator(TTFT_MS, ITL_MS, Map.of())) {
            BenchmarkRun.Result chat = SimulatorRuns.run(config(sim.url(), ApiKind.CHAT, dir.resolve("chat")));
            assertThat(chat.records()).allMatch(RequestRecord::succeeded);
            double ttft = chat.report().results().ttftMs().p50();
            double itl = chat.report().results().itlMs().p50();
            long outputTokens = chat.records().stream().mapToLong(RequestRecord::outputTokens).sum();
            List<String> unserved = new java.util.ArrayList<>();
            for (ApiKind api : DIALECTS) {
                BenchmarkRun.Result result;
                try {
                    result = SimulatorRuns.run(config(sim.url(), api, dir.resolve(api.cliName())));
                } catch (RunException e) {
                    if (e.getMessage().contains("HTTP 404")) {
                        unserved.add(api.cliName());
                        continue;
                    }
                    throw e;
                }
                assertThat(result.records()).as(api.cliName()).allMatch(RequestRecord::succeeded);
                assertThat(result.records().stream().mapToLong(RequestRecord::outputTokens).sum()).as(api.cliName())
                        .isEqualTo(outputTokens);
                assertThat(result.report().results().ttftMs().p50()).as("%s TTFT p50", api.cliName())
                        .isCloseTo(ttft, org.assertj.core.data.Percentage.withPercentage(5));
                assertThat(result.report().results().itlMs().p50()).as("%s ITL p50", api.cliName())
                        .isCloseTo(itl, org.assertj.core.data.Percentage.withPercentage(5));
            }
            Assumptions.assumeTrue(unserved.isEmpty(), () -> "the simulator does not serve " + unserved);
        }
    }
}
