package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.protocol.ImageInputs;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Chat requests with synthetic images go through a whole run against the simulator, and the data's hash names them. */
@Tag("loopback")
class ImagesSimulatorTest {

    @TempDir
    Path dir;

    private RunConfig config(String url, ImageInputs images, String name) {
        return RunConfig.builder()
                .url(url)
                .load(Load.closed(2))
                .numRequests(6L)
                .inputTokens("32")
                .outputTokens("8")
                .tokenizer("cl100k_base")
                .images(images == null ? null : images.count() + ":" + images.width() + "x" + images.height())
                .seed(7)
                .grace(Duration.ofSeconds(5))
                .outputDir(dir.resolve(name))
                .ioThreads(2)
                .build();
    }

    @Test
    void aRunWithImagesSucceedsAndItsContentHashDiffers() throws Exception {
        try (SimServer sim = FixedSimulator.start(20, 5, Map.of())) {
            BenchmarkRun.Result plain = SimulatorRuns.run(config(sim.url(), null, "plain"));
            BenchmarkRun.Result images = SimulatorRuns.run(config(sim.url(), ImageInputs.parse("2:64x48"), "images"));
            assertThat(images.records()).allMatch(RequestRecord::succeeded);
            assertThat(images.report().service().api()).isEqualTo("chat");
            assertThat(images.report().data().contentHash())
                    .isNotEqualTo(plain.report().data().contentHash());
        }
    }
}
