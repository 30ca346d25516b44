package dev.llmload.telemetry.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.telemetry.Fixtures;
import dev.llmload.telemetry.prometheus.PrometheusTextParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("process")
@Tag("timing")
class GpuTest {

    static final String H100 = "NVIDIA H100 80GB HBM3";

    @Test
    void nvidiaSmiLineWithSpaces() {
        assertThat(NvidiaSmi.parseLine("0, NVIDIA H100 80GB HBM3, GPU-aaaa,  87 , 71234, 81559, 612.45"))
                .contains(new GpuSample("nvidia-smi", 0, H100, "GPU-aaaa", null, 87.0, 71234.0, 81559.0, 612.45, null));
    }

    @Test
    void nvidiaSmiUnsupportedFieldsAreAbsent() {
        GpuSample sample = NvidiaSmi.parseLine("3, NVIDIA A10G, GPU-cccc, [N/A], 1024, 23028, [Not Supported]")
                .orElseThrow();

        assertThat(sample.index()).isEqualTo(3);
        assertThat(sample.utilizationPercent()).isNull();
        assertThat(sample.powerWatts()).isNull();
        assertThat(sample.memoryUsedMib()).isEqualTo(1024);
    }

    @Test
    void nvidiaSmiNonGpuLinesAreIgnored() {
        assertThat(NvidiaSmi.parseLine("Failed to initialize NVML: Driver/library version mismatch"))
                .isEmpty();
        assertThat(NvidiaSmi.parseLine("")).isEmpty();
        assertThat(NvidiaSmi.parseLine("x, a, b, 1, 2, 3, 4")).isEmpty();
    }

    @Test
    void nvidiaSmiCommand() {
        assertThat(NvidiaSmi.command("/usr/bin/nvidia-smi", 250))
                .containsExactly(
                        "/usr/bin/nvidia-smi",
                        "--query-gpu=index,name,uuid,utilization.gpu,memory.used,memory.total,power.draw",
                        "--format=csv,noheader,nounits",
                        "-lms",
                        "250");
    }

    @Test
    void dcgmExporterPerGpu() {
        List<GpuSample> gpus = DcgmExporter.read("http://node-a:9400/metrics", Fixtures.scrape("dcgm.prom"));

        assertThat(gpus)
                .containsExactly(
                        new GpuSample(
                                "http://node-a:9400/metrics",
                                0,
                                H100,
                                "GPU-aaaa0000-0000-0000-0000-000000000000",
                                "node-a",
                                90.0,
                                77824.0,
                                81920.0,
                                612.5,
                                0.812345),
                        new GpuSample(
                                "http://node-a:9400/metrics",
                                1,
                                H100,
                                "GPU-bbbb1111-0000-0000-0000-000000000000",
                                "node-a",
                                70.0,
                                75776.0,
                                81920.0,
                                540.25,
                                0.6));
        // A run's scrapes keep only the families read: the same samples.
        assertThat(DcgmExporter.read(
                        "http://node-a:9400/metrics",
                        PrometheusTextParser.parse(Fixtures.text("dcgm.prom"), DcgmExporter.FAMILIES)))
                .isEqualTo(gpus);
        assertThat(DcgmExporter.recognises(Fixtures.scrape("dcgm.prom"))).isTrue();
        assertThat(DcgmExporter.recognises(Fixtures.scrape("vllm-current.prom")))
                .isFalse();
    }

    @Test
    void hardwareCountsGpusOnceAcrossSources() {
        List<GpuSample> dcgm = DcgmExporter.read("dcgm", Fixtures.scrape("dcgm.prom"));
        GpuSample sameGpuFromSmi = new GpuSample(
                "nvidia-smi",
                0,
                H100,
                "GPU-aaaa0000-0000-0000-0000-000000000000",
                null,
                91.0,
                77800.0,
                81559.0,
                600.0,
                null);

        Hardware hardware = Hardware.from(List.of(dcgm.get(0), dcgm.get(1), sameGpuFromSmi));

        assertThat(hardware).isEqualTo(new Hardware(H100, 2, 80.0)); // 81920 MiB / 1024
        assertThat(Hardware.from(List.of())).isEqualTo(Hardware.UNKNOWN);
    }

    @Test
    void hardwareListsMixedModels() {
        GpuSample a = new GpuSample("s", 0, "A10G", "u0", null, null, null, 23028.0, null, null);
        GpuSample b = new GpuSample("s", 1, "L4", "u1", null, null, null, 23034.0, null, null);
        GpuSample c = new GpuSample("s", 2, "L4", "u2", null, null, null, 23034.0, null, null);

        assertThat(Hardware.from(List.of(a, b, c)).gpuModel()).isEqualTo("1x A10G, 2x L4");
    }

    @Test
    void pollerRunsTheExecutableAndTimestampsEachLine(@TempDir Path dir) throws Exception {
        Path args = dir.resolve("args");
        Path script = standIn(dir, """
                #!/bin/sh
                echo "$@" > '%s'
                echo '0, NVIDIA H100 80GB HBM3, GPU-aaaa, 87, 71234, 81559, 612.45'
                echo '1, NVIDIA H100 80GB HBM3, GPU-bbbb, [N/A], 1024, 81559, [Not Supported]'
                """.formatted(args));
        List<GpuReading> readings = new CopyOnWriteArrayList<>();
        CompletableFuture<String> ended = new CompletableFuture<>();
        long before = System.nanoTime();

        NvidiaSmiPoller poller = NvidiaSmiPoller.start(script.toString(), 500, readings::add, ended::complete);
        try {
            assertThat(ended.get(10, TimeUnit.SECONDS)).isEqualTo("nvidia-smi exited with status 0");
        } finally {
            poller.close();
        }

        assertThat(readings).extracting(r -> r.sample().index()).containsExactly(0, 1);
        assertThat(readings.get(1).sample().utilizationPercent()).isNull();
        assertThat(readings).allSatisfy(r -> assertThat(r.nanos()).isBetween(before, System.nanoTime()));
        assertThat(Files.readString(args).trim())
                .isEqualTo("--query-gpu=index,name,uuid,utilization.gpu,memory.used,memory.total,power.draw"
                        + " --format=csv,noheader,nounits -lms 500");
    }

    @Test
    void closingStopsARunningPollerWithoutAnEndReport(@TempDir Path dir) throws Exception {
        Path script = standIn(dir, """
                #!/bin/sh
                while true; do echo '0, T4, GPU-t, 5, 100, 15360, 30'; sleep 0.05; done
                """);
        List<GpuReading> readings = new CopyOnWriteArrayList<>();
        List<String> ended = new CopyOnWriteArrayList<>();

        NvidiaSmiPoller poller = NvidiaSmiPoller.start(script.toString(), 50, readings::add, ended::add);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (readings.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        poller.close();

        assertThat(readings.size()).isGreaterThanOrEqualTo(2);
        assertThat(ended).isEmpty();
    }

    static Path standIn(Path dir, String body) throws IOException {
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }
}
