package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import dev.llmload.config.ConfigException;
import dev.llmload.config.GpuPrice;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.metrics.RunResults;
import dev.llmload.report.Efficiency;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.write.RunRebuild;
import dev.llmload.sim.server.SimServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cost and energy per token from a real run: the simulator serves the tokens, a loopback server
 * serves a recorded DCGM exporter page (two H100s drawing 612.5 W and 540.25 W), and the report's
 * figures equal the ones computed here by hand from its own throughput.
 */
@Tag("loopback")
// The client's scrapes run in Linux's idle scheduling class (they give way to the load), so
// whether they see the server during the run depends on cores left over: a neighbour's load can
// starve them for the whole run.
@Tag("timing")
class EfficiencyLoopbackTest {

    /** The recorded page's two power readings, W. */
    private static final double POWER_WATTS = 612.5 + 540.25;

    @TempDir
    Path dir;

    @Test
    void costAndEnergyPerTokenFollowFromThePriceThePowerAndTheThroughput() throws Exception {
        byte[] page;
        try (InputStream in = EfficiencyLoopbackTest.class.getResourceAsStream("/telemetry/dcgm.prom")) {
            page = in.readAllBytes();
        }
        HttpServer dcgm = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        dcgm.createContext("/metrics", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        dcgm.start();
        try (SimServer sim = FixedSimulator.start(20, 5, Map.of())) {
            RunConfig config = RunConfig.builder()
                    .url(sim.url())
                    .load(Load.closed(4))
                    .numRequests(40L)
                    .inputTokens("64")
                    .outputTokens("16")
                    .tokenizer("cl100k_base")
                    .seed(3)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir.resolve("run"))
                    .ioThreads(1)
                    .scrapeInterval(Duration.ofMillis(200))
                    .gpuMetrics(List.of("http://127.0.0.1:" + dcgm.getAddress().getPort() + "/metrics"))
                    .gpuHourPrice("2.49 USD")
                    .build();
            BenchmarkRun.Result result = SimulatorRuns.run(config);

            RunResults results = result.report().results();
            Efficiency e = result.report().efficiency();
            assertThat(result.report().hardware().gpuCount()).isEqualTo(2);
            assertThat(e.gpuHourPrice()).isEqualTo(2.49);
            assertThat(e.currency()).isEqualTo("USD");
            assertThat(e.gpuCount()).isEqualTo(2);
            double outputRate = results.outputTokenThroughput();
            // Two GPUs at 2.49 an hour, a million tokens at outputRate tokens per second.
            assertThat(e.costPerMillionOutputTokens()).isCloseTo(2 * 2.49 * 1e6 / (3600 * outputRate), within(1e-9));
            assertThat(e.costPerMillionTotalTokens())
                    .isCloseTo(2 * 2.49 * 1e6 / (3600 * results.totalTokenThroughput()), within(1e-9));
            assertThat(e.gpuPowerWatts()).isCloseTo(POWER_WATTS, within(1e-9));
            assertThat(e.energyPerOutputTokenJoules()).isCloseTo(POWER_WATTS / outputRate, within(1e-9));
            // The exporter was first read before the load began: that reading is the idle draw.
            assertThat(e.gpuIdlePowerWatts()).isCloseTo(POWER_WATTS, within(1e-9));

            // Written where users look, and rebuilt the same from the run directory.
            Path run = result.directory();
            assertThat(Files.readString(run.resolve("summary.csv"))
                            .lines()
                            .findFirst()
                            .orElseThrow())
                    .contains("cost_per_million_output_tokens", "energy_per_output_token_joules");
            assertThat(ReportFiles.JSON
                            .readTree(run.resolve("report.json").toFile())
                            .path("efficiency")
                            .path("currency")
                            .asText())
                    .isEqualTo("USD");
            assertThat(RunRebuild.rebuild(run).report().efficiency()).isEqualTo(e);
        } finally {
            dcgm.stop(0);
        }
    }

    @Test
    void withoutAPriceOrPowerReadingsThereAreNoFigures() throws Exception {
        try (SimServer sim = FixedSimulator.start(5, 1, Map.of())) {
            BenchmarkRun.Result plain =
                    SimulatorRuns.run(SimulatorRuns.closedLoop(sim.url(), 2, 6, 16, 4, dir.resolve("a")));
            assertThat(plain.report().efficiency()).isNull();
            assertThat(ReportFiles.JSON
                            .readTree(plain.directory().resolve("report.json").toFile())
                            .get("efficiency")
                            .isNull())
                    .isTrue();

            // A price without a GPU count gives no cost: llmload does not guess how many GPUs serve.
            RunConfig priced = RunConfig.builder()
                    .url(sim.url())
                    .load(Load.closed(2))
                    .numRequests(6L)
                    .inputTokens("16")
                    .outputTokens("4")
                    .tokenizer("cl100k_base")
                    .outputDir(dir.resolve("b"))
                    .ioThreads(1)
                    .gpuHourPrice("2EUR")
                    .build();
            Efficiency e = SimulatorRuns.run(priced).report().efficiency();
            assertThat(e.gpuHourPrice()).isEqualTo(2.0);
            assertThat(e.currency()).isEqualTo("EUR");
            assertThat(e.gpuCount()).isNull();
            assertThat(e.costPerMillionOutputTokens()).isNull();
            assertThat(e.gpuPowerWatts()).isNull();
            assertThat(e.energyPerOutputTokenJoules()).isNull();
        }
    }

    @Test
    void aPriceNeedsAnAmountAndACurrency() {
        assertThat(GpuPrice.parse("2.49USD")).isEqualTo(new GpuPrice("2.49USD", 2.49, "USD"));
        assertThat(GpuPrice.parse(" 3 eur ").currency()).isEqualTo("EUR");
        assertThatThrownBy(() -> GpuPrice.parse("2.49"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("--gpu-hour-price expects an amount and a currency, e.g. 2.49USD, got '2.49'");
        assertThatThrownBy(() -> GpuPrice.parse("0USD"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("--gpu-hour-price must be above 0, got 0.0");
    }
}
