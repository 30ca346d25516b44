package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.ImageInputs;
import dev.llmload.record.RequestRecord;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
        DataSpec data = new DataSpec("32", "8", null, null, null, null, null, null, "cl100k_base", null, 1, images);
        return new RunConfig(url, ApiKind.AUTO, null, true, true, LoadSpec.closed(2), 6L, null, 0, null, data, 7,
                Timeouts.defaults(), TelemetrySpec.auto(), Duration.ofSeconds(5), dir.resolve(name), Map.of(), List.of(),
                false, 2, null, null, List.of());
    }

    @Test
    void aRunWithImagesSucceedsAndItsContentHashDiffers() throws Exception {
        try (SimServer sim = SimulatorRuns.fixedSimulator(20, 5, Map.of())) {
            BenchmarkRun.Result plain = SimulatorRuns.run(config(sim.url(), null, "plain"));
            BenchmarkRun.Result images = SimulatorRuns.run(config(sim.url(), ImageInputs.parse("2:64x48"), "images"));
            assertThat(images.records()).allMatch(RequestRecord::succeeded);
            assertThat(images.report().service().api()).isEqualTo("chat");
            assertThat(images.report().data().contentHash()).isNotEqualTo(plain.report().data().contentHash());
        }
    }
}
