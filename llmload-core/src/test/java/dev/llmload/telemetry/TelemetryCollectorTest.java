package dev.llmload.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmload.client.SchedulingClassTest;
import dev.llmload.http.PageFetch;
import dev.llmload.note.Note;
import dev.llmload.telemetry.engine.EngineKind;
import dev.llmload.telemetry.gpu.GpuReading;
import dev.llmload.testsupport.HostLoad;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
@Tag("loopback")
@Tag("process")
@Tag("timing")
class TelemetryCollectorTest {

    static final Duration FAST = Duration.ofMillis(100);

    static TelemetryConfig config(java.net.URI server, EngineKind kind, List<java.net.URI> gpus, String smi) {
        return new TelemetryConfig(server, kind, gpus, smi, FAST, FAST);
    }

    @Test
    void scrapesServerAndDcgmOnTheTimerWithArrivalTimestamps() throws Exception {
        try (ScriptedMetricsServer vllm =
                        new ScriptedMetricsServer().prometheus("/metrics", Fixtures.text("vllm-current.prom"));
                ScriptedMetricsServer dcgm =
                        new ScriptedMetricsServer().prometheus("/metrics", Fixtures.text("dcgm.prom"))) {
            TelemetryCollector collector =
                    new TelemetryCollector(config(vllm.uri("/metrics"), null, List.of(dcgm.uri("/metrics")), null));

            assertThat(collector.probe()).isEmpty();
            long started = System.nanoTime();
            collector.start();
            Thread.sleep(650);
            TelemetryRecording recording = collector.stop();
            long stopped = System.nanoTime();

            assertThat(recording.serverKind()).isEqualTo(EngineKind.VLLM);
            // Probe, one scrape per 100 ms tick, final scrape. Never more ticks than fit in the time
            // the collector ran; fewer on a busy machine, whose late ticks are not made up, so the
            // lower bound counts half the ticks, fewer still when the run queue exceeds the cores.
            double ticks = (stopped - started) / (double) FAST.toNanos();
            int fewestTicks = (int) (ticks / (2 * HostLoad.factor()));
            assertThat(recording.server())
                    .as("%.1f ticks' time, %s", ticks, HostLoad.describe())
                    .hasSizeBetween(2 + fewestTicks, 3 + (int) ticks);
            assertThat(recording.server().getLast().signals().requestsRunning()).isEqualTo(22);
            assertThat(recording.server().getLast().nanos()).isBetween(started, stopped);
            long gpus = recording.gpu().stream()
                    .mapToInt(r -> r.sample().index())
                    .distinct()
                    .count();
            assertThat(gpus).isPositive();
            assertThat(recording.gpu())
                    .as("%d GPUs, %.1f ticks' time, %s", gpus, ticks, HostLoad.describe())
                    .hasSizeGreaterThanOrEqualTo((int) (gpus * (1 + fewestTicks)))
                    .allSatisfy(r -> assertThat(r.sample().host()).isEqualTo("node-a"));
            // Not one scrape missed its 80 ms: in the idle class of a run, only where no other
            // program kept the cores busy (beside two sha256sum, one in about three runs missed).
            double othersPerCore = HostLoad.othersPerCore();
            assumeTrue(
                    othersPerCore <= 0.5,
                    () -> "deadlines not judged: other processes kept %.1f threads per core runnable, and the"
                                    .formatted(othersPerCore)
                            + " scrapes of a run are in the idle class (all other checks of this test passed)");
            assertThat(recording.gaps()).isEmpty();
            assertThat(recording.notes()).isEmpty();
        }
    }

    @Test
    void theScrapesGiveWayToTheLoadInTheIdleSchedulingClassDuringTheRunOnly() throws Exception {
        SchedulingClassTest.assumeLinuxWithChrt();
        try (ScriptedMetricsServer vllm =
                new ScriptedMetricsServer().prometheus("/metrics", Fixtures.text("vllm-current.prom"))) {
            // Threads of the same name another class left in this JVM are not the ones under test.
            Set<Long> others = SchedulingClassTest.policiesById(TELEMETRY).keySet();
            TelemetryCollector collector = new TelemetryCollector(config(vllm.uri("/metrics"), null, List.of(), null));
            collector.probe();
            // The owner thread ("llmload-telemetry") and the host's event loop ("llmload-telemetry-io-1")
            // share the kernel's 15-character name.
            List<Integer> beforeTheRun =
                    SchedulingClassTest.settledPolicies(TELEMETRY, others, SchedulingClassTest.SCHED_OTHER, 2);
            collector.start();
            List<Integer> policies =
                    SchedulingClassTest.settledPolicies(TELEMETRY, others, SchedulingClassTest.SCHED_IDLE, 2);
            collector.stop();
            // Before the run nothing is to be given way to, and the probe must not wait for other programs.
            assertThat(beforeTheRun)
                    .as("the scrape thread and the host's event loop at the probe")
                    .hasSizeGreaterThanOrEqualTo(2)
                    .containsOnly(SchedulingClassTest.SCHED_OTHER);
            assertThat(policies)
                    .as("the scrape thread and the host's event loop")
                    .hasSizeGreaterThanOrEqualTo(2)
                    .containsOnly(SchedulingClassTest.SCHED_IDLE);
        }
    }

    /** The kernel's name of the telemetry threads (15 characters). */
    private static final String TELEMETRY = "llmload-telemet";

    /**
     * The target hangs for long enough that a tick's 80 ms deadline passes before it dies: 500 ms
     * on a quiet machine, longer on a busy one, where the scrape threads (in the idle class) may
     * wait that long for a core.
     */
    @Test
    void aTargetThatHangsThenDiesLeavesGapsAndSlowsNothingElse() throws Exception {
        long hangMs = Math.round(500 * HostLoad.factor());
        ScriptedMetricsServer vllm =
                new ScriptedMetricsServer().prometheus("/metrics", Fixtures.text("vllm-current.prom"));
        try (ScriptedMetricsServer dcgm =
                new ScriptedMetricsServer().prometheus("/metrics", Fixtures.text("dcgm.prom"))) {
            TelemetryCollector collector = new TelemetryCollector(
                    config(vllm.uri("/metrics"), EngineKind.VLLM, List.of(dcgm.uri("/metrics")), null));
            collector.probe();
            collector.start();
            Thread.sleep(300);
            vllm.hang();
            Thread.sleep(hangMs);
            vllm.close();
            Thread.sleep(400);
            TelemetryRecording recording = collector.stop();

            assertThat(recording.gaps()).extracting(ScrapeGap::reason).contains("no answer within 80 ms");
            assertThat(recording.gaps())
                    .extracting(ScrapeGap::reason)
                    .anyMatch(reason ->
                            reason.contains("Connection refused") || reason.contains("closed the connection"));
            // The healthy target may miss an 80 ms deadline on a loaded machine (about once; a few times
            // where the run queue exceeds the cores), but not the way the dead one does, at every tick.
            long healthyGaps = recording.gaps().stream()
                    .filter(gap -> !gap.source().equals(vllm.uri("/metrics").toString()))
                    .count();
            assertThat(healthyGaps).as(HostLoad.describe()).isLessThanOrEqualTo((long) Math.ceil(HostLoad.factor()));
            // One note per target with gaps: the dead one's, and the healthy one's where it missed too.
            assertThat(recording.notes())
                    .extracting(Note::kind)
                    .containsOnly("telemetry_gaps")
                    .hasSize(healthyGaps > 0 ? 2 : 1);
            // Whichever target's gaps came first: beside two sha256sum the healthy one's note led.
            assertThat(recording.notes())
                    .extracting(Note::message)
                    .anyMatch(message -> message.contains(vllm.uri("/metrics").toString()));
            // The DCGM target kept its cadence all along: no hole much longer than the interval.
            // Inside a run the scrapes are in the idle scheduling class (docs/telemetry.md), so where
            // other programs keep the cores busy they wait for them, hang or no hang: beside two
            // sha256sum the holes were 1.7-1.8 s. Not judged there; the gaps above were.
            double othersPerCore = HostLoad.othersPerCore();
            assumeTrue(
                    othersPerCore <= 0.5,
                    () -> "cadence not judged: other processes kept %.1f threads per core runnable, and the scrapes"
                                    .formatted(othersPerCore)
                            + " of a run are in the idle class (all other checks of this test passed)");
            List<Long> dcgmTimes = recording.gpu().stream()
                    .filter(r -> r.sample().index() == 0)
                    .map(GpuReading::nanos)
                    .toList();
            // Judged by the load during the run (the sampler's recent seconds), not before it.
            long holeMs = Math.round(HostLoad.slackMs(450));
            List<Long> holes = new ArrayList<>();
            for (int i = 1; i < dcgmTimes.size(); i++) {
                holes.add(dcgmTimes.get(i) - dcgmTimes.get(i - 1));
            }
            assertThat(holes)
                    .as(HostLoad.describe())
                    .isNotEmpty()
                    .allSatisfy(hole -> assertThat(hole)
                            .isLessThan(Duration.ofMillis(holeMs).toNanos()));
        }
    }

    @Test
    void aTargetThatHangsFromTheStartIsSkippedAtTheProbe() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new CopyOnWriteArrayList<>();
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // test over
                }
            });
            TelemetryCollector collector = new TelemetryCollector(config(
                    java.net.URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/metrics"),
                    null,
                    List.of(),
                    null));

            // The probe's 2 s, and as long again for a first connection and request on a quiet machine.
            double boundMs = 2000 + HostLoad.slackMs(2000);
            long before = System.nanoTime();
            List<Note> notes = collector.probe();
            long took = System.nanoTime() - before;
            collector.close();

            assertThat(notes).singleElement().satisfies(note -> {
                assertThat(note.kind()).isEqualTo("server_metrics_skipped");
                assertThat(note.message()).contains("did not answer within 2000 ms");
            });
            assertThat(took / 1e6).as(HostLoad.describe()).isLessThan(boundMs);
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }

    @Test
    void aPageOverSixteenMebibytesIsNeverReadWhole() throws Exception {
        String page = Fixtures.text("vllm-current.prom");
        // Comment lines are Prometheus text too: only its size is wrong with this page.
        String oversized = page + "# padding\n".repeat(PageFetch.MAX_BYTES / 10);
        Duration second = Duration.ofSeconds(1);
        try (ScriptedMetricsServer vllm =
                new ScriptedMetricsServer().prometheus("/metrics", page).endless("/endless")) {
            // An answer without end is cut off at the limit, long before the probe's two seconds are up.
            try (TelemetryCollector probing = new TelemetryCollector(
                    new TelemetryConfig(vllm.uri("/endless"), EngineKind.VLLM, List.of(), null, second, second))) {
                assertThat(probing.probe())
                        .extracting(Note::message)
                        .containsExactly("server metrics at " + vllm.uri("/endless")
                                + " answered more than 16 MiB; not scraped");
            }
            // A page that announces more than the limit is a gap in the run's series.
            TelemetryCollector collector = new TelemetryCollector(
                    new TelemetryConfig(vllm.uri("/metrics"), EngineKind.VLLM, List.of(), null, second, second));
            assertThat(collector.probe()).isEmpty();
            collector.start();
            vllm.prometheus("/metrics", oversized);
            TelemetryRecording recording = collector.stop();

            assertThat(recording.server()).hasSize(2); // the probe's reading and the baseline
            assertThat(recording.gaps()).extracting(ScrapeGap::reason).containsExactly("answered more than 16 MiB");
        }
    }

    @Test
    void jsonMetricsAreSkippedWithANote() throws Exception {
        try (ScriptedMetricsServer trtllm = new ScriptedMetricsServer()
                .answer("/metrics", 200, "application/json", Fixtures.text("trtllm-serve-metrics.json"))) {
            TelemetryCollector collector =
                    new TelemetryCollector(config(trtllm.uri("/metrics"), null, List.of(), null));

            List<Note> notes = collector.probe();
            TelemetryRecording recording = collector.stop();

            assertThat(notes)
                    .containsExactly(new Note(
                            "server_metrics_skipped",
                            "server metrics at " + trtllm.uri("/metrics")
                                    + " answered JSON, not Prometheus text; not scraped"));
            assertThat(recording.server()).isEmpty();
            assertThat(recording.serverKind()).isNull();
        }
    }

    @Test
    void trtllmServeJsonMetricsMoveToPrometheusMetrics() throws Exception {
        try (ScriptedMetricsServer trtllm = new ScriptedMetricsServer()
                .answer("/metrics", 200, "application/json", Fixtures.text("trtllm-serve-metrics.json"))
                .prometheus("/prometheus/metrics", Fixtures.text("trtllm-serve.prom"))) {
            TelemetryCollector collector =
                    new TelemetryCollector(config(trtllm.uri("/metrics"), null, List.of(), null));

            List<Note> notes = collector.probe();
            TelemetryRecording recording = collector.stop();

            assertThat(notes).extracting(Note::kind).containsExactly("server_metrics_moved");
            assertThat(recording.serverKind()).isEqualTo(EngineKind.TRTLLM);
            assertThat(recording.server()).hasSize(2); // probe baseline + final scrape
            assertThat(recording.server().getFirst().signals().kvCacheUsage()).isEqualTo(0.62);
        }
    }

    @Test
    void htmlA404AndAnUnknownServerAreSkipped() throws Exception {
        try (ScriptedMetricsServer web = new ScriptedMetricsServer()
                .answer("/", 200, "text/html", "<html><body>hi</body></html>")
                .prometheus("/node", "# TYPE node_load1 gauge\nnode_load1 0.5\n")) {
            try (TelemetryCollector collector =
                    new TelemetryCollector(config(web.uri("/"), null, List.of(web.uri("/missing")), null))) {
                assertThat(collector.probe())
                        .extracting(Note::message)
                        .containsExactly(
                                "server metrics at " + web.uri("/")
                                        + " answered HTML, not Prometheus text; not scraped",
                                "GPU metrics at " + web.uri("/missing") + " answered HTTP 404; not scraped");
            }
            try (TelemetryCollector collector =
                    new TelemetryCollector(config(web.uri("/node"), null, List.of(web.uri("/node")), null))) {
                // Once, under load, the server probe here was skipped instead; the message says why.
                List<Note> notes = collector.probe();
                assertThat(notes)
                        .as("%s", notes)
                        .extracting(Note::kind)
                        .containsExactly("server_kind_unknown", "gpu_metrics_skipped");
            }
        }
    }

    @Test
    void aForcedKindIsUsedAndAMismatchNoted() throws Exception {
        try (ScriptedMetricsServer sglang =
                new ScriptedMetricsServer().prometheus("/metrics", Fixtures.text("sglang.prom"))) {
            TelemetryCollector collector =
                    new TelemetryCollector(config(sglang.uri("/metrics"), EngineKind.VLLM, List.of(), null));

            assertThat(collector.probe()).extracting(Note::kind).containsExactly("server_kind_mismatch");
            assertThat(collector.stop().serverKind()).isEqualTo(EngineKind.VLLM);
        }
    }

    @Test
    void nvidiaSmiReadingsJoinTheRecording(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, """
                #!/bin/sh
                echo '0, NVIDIA L4, GPU-l4, 55, 20000, 23034, 60.5'
                sleep 0.1
                echo '0, NVIDIA L4, GPU-l4, [N/A], 20100, 23034, 61.0'
                """);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        TelemetryCollector collector = new TelemetryCollector(config(null, null, List.of(), script.toString()));

        collector.start();
        // Time for the stand-in to print twice and end; it runs in the idle class, so on a busy
        // machine it waits for a core, and on a very busy one may not run at all in that time.
        Thread.sleep(Math.round(HostLoad.slackMs(600)));
        TelemetryRecording recording = collector.stop();

        assertThat(recording.gpu())
                .as(HostLoad.describe())
                .extracting(r -> r.sample().utilizationPercent())
                .containsExactly(55.0, null);
        assertThat(recording.notes()).extracting(Note::kind).containsExactly("nvidia_smi_stopped");
    }

    @Test
    void aMissingNvidiaSmiIsANote(@TempDir Path dir) {
        TelemetryCollector collector = new TelemetryCollector(
                config(null, null, List.of(), dir.resolve("absent").toString()));

        collector.start();
        assertThat(collector.stop().notes()).extracting(Note::kind).containsExactly("nvidia_smi_failed");
    }
}
