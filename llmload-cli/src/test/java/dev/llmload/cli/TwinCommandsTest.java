package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.server.SimConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code llmload fit} and {@code llmload whatif} end to end on one small run, in the default tier:
 * a run directory in, a profile that the simulator loads and a fit report out, and the warnings a
 * user needs when one run cannot pin an engine down. How well a fit recovers a hidden engine is
 * {@code TwinLoopbackTest}'s ({@code long}) and bench/twin.sh's.
 */
@Tag("loopback")
class TwinCommandsTest {

    @TempDir
    Path dir;

    @Test
    void oneRunFitsAProfileTheSimulatorServesAndSaysWhatItCannotIdentify() throws Exception {
        // The hidden engine of TwinLoopbackTest: up to 8 sequences in a batch.
        Path sim = Files.writeString(dir.resolve("sim.yaml"), TwinLoopbackTest.SIM_TEXT);
        Path runDir = dir.resolve("run");
        // Two in flight against a batch of 8: no request ever waits for a place in the batch, and
        // every prompt is as long as every other.
        CapturedRun run = CapturedRun.of(
                "run",
                "--concurrency",
                "2",
                "--num-requests",
                "16",
                "--input-tokens",
                "200",
                "--output-tokens",
                "16",
                "--scrape-interval",
                "250ms",
                "--sim-config",
                sim.toString(),
                "--output-dir",
                runDir.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();

        Path profile = dir.resolve("twin.yaml");
        CapturedRun fit = CapturedRun.of("fit", runDir.toString(), "--output", profile.toString());
        assertThat(fit.exitCode()).as(fit.err()).isZero();
        assertThat(fit.out())
                .contains("step_ms = ", "What each run constrained:")
                .contains("maxNumSeqs")
                .contains("not identified: no run kept requests waiting");
        assertThat(Files.readString(dir.resolve("twin-fit.txt"))).contains("not identified");
        // The profile is a whole simulator config: it loads, and what was not identified keeps the
        // simulator's default rather than a made-up value.
        SimConfig twin = SimConfig.load(profile, Map.of());
        assertThat(twin.batching().maxNumSeqs())
                .isEqualTo(SimConfig.defaults().batching().maxNumSeqs());

        CapturedRun whatif = CapturedRun.of(
                "whatif",
                "--profile",
                profile.toString(),
                "--concurrency",
                "4",
                "--input-tokens",
                "uniform:100:300",
                "--output-tokens",
                "16",
                "--num-requests",
                "40");
        assertThat(whatif.exitCode()).as(whatif.err()).isZero();
        assertThat(whatif.out()).contains("Predicted for concurrency 4", "ttft");

        CapturedRun none = CapturedRun.of("fit", dir.resolve("no-such-run").toString());
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err().strip()).doesNotContain("\n").contains("no such directory");
    }
}
