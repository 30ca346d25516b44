package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.sim.fault.FaultRule;
import dev.llmload.sim.fault.PauseWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimConfigTest {

    @Test
    void yamlOverlaysDefaultsAndOverridesOverlayTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sim.yaml");
        Files.writeString(file, """
                model: my-model
                itlMs: 7.5
                faults: ["http-429@0.1", "stall:3:500@0.01"]
                pauses: ["1000:200"]
                groundTruth: /tmp/x.jsonl
                """);
        SimConfig config = SimConfig.load(file, Map.of("itlMs", 9, "port", 8123));
        assertThat(config.model()).isEqualTo("my-model");
        assertThat(config.itlMs()).isEqualTo(9);
        assertThat(config.port()).isEqualTo(8123);
        assertThat(config.ttftMs()).isEqualTo(SimConfig.defaults().ttftMs());
        assertThat(config.faults()).containsExactly(new FaultRule("http-429", 0.1), new FaultRule("stall:3:500", 0.01));
        assertThat(config.pauses()).containsExactly(new PauseWindow(1000, 200));
        assertThat(config.groundTruth()).isEqualTo("/tmp/x.jsonl");
    }

    @Test
    void jsonWorksAndMistakesAreRejected(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("sim.json");
        Files.writeString(json, "{\"ttftMs\": 1, \"echo\": true}");
        assertThat(SimConfig.load(json, Map.of()).echo()).isTrue();

        Files.writeString(json, "{\"ttftMss\": 1}");
        assertThatThrownBy(() -> SimConfig.load(json, Map.of())).hasMessageContaining("ttftMss");
        assertThatThrownBy(() -> SimConfig.load(null, Map.of("faults", List.of("boom@0.1"))))
                .hasMessageContaining("bad fault");
        assertThatThrownBy(() -> SimConfig.load(null, Map.of("jitter", 2))).hasMessageContaining("jitter");
    }

    @Test
    void aFileThatDoesNotReadIsOneLineThatSaysWhere(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("sim.yaml");
        Files.writeString(yaml, """
                model: my-model
                itlMs: [7.5
                ttftMs: 3
                """);
        assertThatThrownBy(() -> SimConfig.load(yaml, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("simulator config " + yaml + ":3:")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        Files.writeString(yaml, "model: a\n  itlMs: 2\n");
        assertThatThrownBy(() -> SimConfig.load(yaml, Map.of()))
                .hasMessageStartingWith("simulator config " + yaml + ":2:")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        Files.writeString(yaml, "ttftMss: 1\n");
        assertThatThrownBy(() -> SimConfig.load(yaml, Map.of()))
                .hasMessageStartingWith("simulator config " + yaml + ": ")
                .hasMessageContaining("ttftMss")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        Path missing = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> SimConfig.load(missing, Map.of()))
                .hasMessage("simulator config " + missing + ": no such file");
    }

    @Test
    void aContextTheCacheCannotHoldIsRefusedInOneLineThatSaysWhy(@TempDir Path dir) throws Exception {
        assertThat(SimConfig.defaults().maxModelLen()).isEqualTo(32768);
        // 1,000 blocks of 16 tokens less the 1% watermark (10 blocks): 15,840 tokens. vLLM refuses to
        // start when one request of its context length cannot fit; so does the simulator, naming
        // the reason rather than the class that failed.
        Path file = dir.resolve("sim.yaml");
        Files.writeString(file, "batching:\n  numBlocks: 1000\n");
        assertThatThrownBy(() -> SimConfig.load(file, Map.of()))
                .hasMessage("simulator config " + file + ": maxModelLen 32768 does not fit in the KV cache: 1000 "
                        + "blocks of 16 tokens less the watermark hold 15840 tokens; raise numBlocks or lower "
                        + "maxModelLen");
        assertThat(SimConfig.load(file, Map.of("maxModelLen", 15_840)).maxModelLen())
                .isEqualTo(15_840);
    }
}
