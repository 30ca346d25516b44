package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.sim.engine.batching.BatchingEngine;
import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.engine.batching.StepTimeProfile;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code llmload sim}'s flags: listed in the help, mapped onto {@link SimConfig}, seen by the running engine. */
@Tag("loopback")
class SimCommandTest {

    @TempDir
    Path dir;

    private static SimConfig resolve(String... args) {
        SimCommand command = new SimCommand();
        new CommandLine(command).parseArgs(args);
        return command.resolve();
    }

    @Test
    void helpListsTheEngineFlags() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        assertThat(commandLine.execute("sim", "--help")).isZero();
        assertThat(out.toString())
                .contains(
                        "Usage: llmload sim",
                        "--engine",
                        "--profile",
                        "--coefficient",
                        "--num-blocks",
                        "--block-size",
                        "--max-num-seqs",
                        "--max-num-batched-tokens",
                        "--max-waiting",
                        "--watermark",
                        "--tokens-per-step");
    }

    @Test
    void batchingFlagsSetTheBatchingSection() {
        SimConfig config = resolve(
                "--port",
                "0",
                "--engine",
                "batching",
                "--profile",
                "h100-llama3-8b",
                "--coefficient",
                "mfu=0.4",
                "--coefficient",
                "step_overhead_ms=2",
                "--num-blocks",
                "4096",
                "--block-size",
                "32",
                "--max-num-seqs",
                "64",
                "--max-num-batched-tokens",
                "2048",
                "--max-waiting",
                "100",
                "--watermark",
                "0.05",
                "--tokens-per-step",
                "3",
                "--speedup",
                "4");

        BatchingEngineConfig b = config.batching();
        assertThat(config.engine()).isEqualTo(SimConfig.EngineKind.BATCHING);
        assertThat(b.profile()).isEqualTo(StepTimeProfile.H100_LLAMA3_8B);
        assertThat(b.coefficients()).isEqualTo(Map.of("mfu", 0.4, "step_overhead_ms", 2.0));
        assertThat(b.numBlocks()).isEqualTo(4096);
        assertThat(b.blockSize()).isEqualTo(32);
        assertThat(b.maxNumSeqs()).isEqualTo(64);
        assertThat(b.maxNumBatchedTokens()).isEqualTo(2048);
        assertThat(b.maxWaiting()).isEqualTo(100);
        assertThat(b.watermark()).isEqualTo(0.05);
        assertThat(b.tokensPerStep()).isEqualTo(3);
        assertThat(b.speedup()).isEqualTo(4.0);
    }

    @Test
    void flagsOverrideTheConfigFileKeyByKey() throws Exception {
        Path file = dir.resolve("sim.yaml");
        Files.writeString(file, """
                engine: fixed
                batching:
                  maxNumSeqs: 32
                  numBlocks: 4096
                  coefficients: {decode_c: 4}
                """);

        SimConfig fromFile = resolve("--config", file.toString());
        assertThat(fromFile.engine()).isEqualTo(SimConfig.EngineKind.FIXED);
        assertThat(fromFile.batching().maxNumSeqs()).isEqualTo(32);

        SimConfig config = resolve(
                "--config",
                file.toString(),
                "--engine",
                "batching",
                "--num-blocks",
                "8192",
                "--coefficient",
                "prefill_c=10");
        assertThat(config.engine()).isEqualTo(SimConfig.EngineKind.BATCHING);
        assertThat(config.batching().numBlocks()).isEqualTo(8192);
        // Keys the flags do not name stay as the file gave them.
        assertThat(config.batching().maxNumSeqs()).isEqualTo(32);
        assertThat(config.batching().coefficients()).isEqualTo(Map.of("decode_c", 4.0, "prefill_c", 10.0));
    }

    @Test
    void aBadEngineSettingIsRefusedWithItsReason() {
        assertThatThrownBy(() -> resolve("--engine", "turbo")).hasMessageContaining("unknown engine 'turbo'");
        assertThatThrownBy(() -> resolve("--coefficient", "mfu=0.4")).hasMessageContaining("no coefficient 'mfu'");
        assertThatThrownBy(() -> resolve("--num-blocks", "10")).hasMessageContaining("does not fit in the KV cache");
    }

    @Test
    void theRunningEngineUsesTheFlags() throws Exception {
        SimConfig config =
                resolve("--port", "0", "--num-blocks", "1000", "--block-size", "32", "--max-model-len", "4096");
        try (SimServer server = SimServer.start(config)) {
            assertThat(server.engine()).isInstanceOf(BatchingEngine.class);
            String metrics = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(server.url() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(metrics).contains("block_size=\"32\"", "num_gpu_blocks=\"1000\"");
        }
    }
}
