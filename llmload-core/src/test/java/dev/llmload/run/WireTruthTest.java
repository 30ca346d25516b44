package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.record.Journal;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import dev.llmload.testsupport.RequiredTool;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's ground-truth log against a packet capture of the same run: 64 streams, 128
 * requests of 256 prompt and 64 output tokens through TGI's API, with {@code tcpdump} on the
 * loopback interface. The capture is read by {@code bench/wire-truth.py} (the harness of
 * docs/performance.md), which joins packets to requests by {@code x-request-id}.
 *
 * <p>The log and the packets share a clock: the log's {@code arrival_unix_us} is CLOCK_REALTIME
 * read with the arrival's monotonic stamp, and the kernel stamps captured packets with
 * CLOCK_REALTIME. So every arrival is compared with its request's first packet, and every token
 * write with the packet that carried its event, as instants, with no offset estimated.
 *
 * <p>Always checked: every request of the run is in the capture and the log with the same token
 * events, and no arrival precedes its packet (the server cannot read a byte before it was sent).
 * The 1 ms bound at p99 is a wall-clock bound, widened with the machine's load ({@link HostLoad})
 * and skipped where the load is too high for any bound to mean something: a starved event loop
 * reads a request late, and the log then says so rather than hiding it.
 *
 * <p>Needs {@code tcpdump} with the right to capture (root or CAP_NET_RAW) and {@code python3}.
 *
 * <p>In the {@code long} tier ({@code ./mvnw -B verify -Plong}), not the default run, because its
 * arrival bound does not hold on a 2-vCPU host (docs/performance.md, "A whole capture, and where
 * the simulator's reads still wait"): there the simulator read requests 0.9-3.9 ms after their
 * first packet at p50 and 3.7-8.4 ms at p99, its event loop off its core for milliseconds while a
 * request was parsed. The token writes agree with their packets to 0.05 ms.
 */
@Tag("loopback")
@Tag("process")
@Tag("timing")
@Tag("long")
class WireTruthTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int STREAMS = 64;
    private static final int REQUESTS = 128;
    private static final int OUTPUT_TOKENS = 64;
    private static final Path HARNESS =
            Path.of("..", "bench", "wire-truth.py").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theSimulatorsGroundTruthAgreesWithThePacketsWithin1MsAtP99() throws Exception {
        RequiredTool.require(onPath("tcpdump"), "tcpdump not installed (apt-get install tcpdump); check skipped");
        RequiredTool.require(onPath("python3"), "python3 not installed (apt-get install python3); check skipped");
        Path truthFile = dir.resolve("ground-truth.jsonl");
        Path pcap = dir.resolve("run.pcap");
        Path runDir = dir.resolve("run");
        int port;
        SimServer.warmUpOverLoopback(); // as llmload sim does: the first burst is served compiled
        try (SimServer sim = SimServer.start(SimConfig.load(null, Map.of("groundTruth", truthFile.toString())))) {
            port = sim.port();
            Process capture = startCapture(port, pcap);
            try {
                SimulatorRuns.run(RunConfig.builder()
                        .url(sim.url())
                        .api("tgi")
                        .load(Load.closed(STREAMS))
                        .numRequests((long) REQUESTS)
                        .inputTokens("256")
                        .outputTokens(String.valueOf(OUTPUT_TOKENS))
                        .tokenizer("cl100k_base")
                        .seed(7)
                        .grace(Duration.ofSeconds(5))
                        .outputDir(runDir)
                        .ioThreads(2)
                        .build());
            } finally {
                awaitQuiet(pcap);
                capture.destroy(); // SIGTERM: tcpdump writes what it has and its counts
                assertThat(capture.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            String counts = Files.readString(dir.resolve("tcpdump.log"));
            assertThat(counts)
                    .as("tcpdump's own count of packets the kernel dropped")
                    .contains("0 packets dropped by kernel");
        } // closing the simulator flushes its log

        Path figuresFile = dir.resolve("figures.json");
        Process analysis = new ProcessBuilder(
                        "python3",
                        HARNESS.toString(),
                        "analyse",
                        "--pcap",
                        pcap.toString(),
                        "--port",
                        String.valueOf(port),
                        "--journal",
                        runDir.resolve(Journal.FILE_NAME).toString(),
                        "--truth",
                        truthFile.toString(),
                        "--json",
                        figuresFile.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("analysis.txt").toFile())
                .start();
        assertThat(analysis.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String printed = Files.readString(dir.resolve("analysis.txt"));
        System.out.println(printed);
        assertThat(analysis.exitValue()).as(printed).isZero();

        JsonNode result = JSON.readTree(figuresFile.toFile());
        assertThat(result.get("problems")).as("capture problems").isEmpty();
        assertThat(result.get("joined").get("client").asInt()).isEqualTo(REQUESTS);
        assertThat(result.get("joined").get("sim").asInt()).isEqualTo(REQUESTS);
        assertThat(result.get("partial_answers").asInt())
                .as("answers the capture holds only part of")
                .isZero();
        assertThat(result.get("token_count_mismatches").get("sim").asInt()).isZero();
        JsonNode figures = result.get("figures");
        assertThat(figures.has("sim_arrival_minus_packet_ms"))
                .as("the log gives its arrivals on the wall clock " + "(arrival_unix_us)")
                .isTrue();
        JsonNode arrival = figures.get("sim_arrival_minus_packet_ms").get("all");
        JsonNode write = figures.get("sim_write_minus_packet_ms").get("all");
        JsonNode ttft = figures.get("sim_ttft_minus_wire_ms").get("all");
        JsonNode gap = figures.get("sim_gap_minus_wire_ms").get("all");
        assertThat(arrival.get("n").asInt()).isEqualTo(REQUESTS);
        assertThat(write.get("n").asInt()).isEqualTo(REQUESTS * OUTPUT_TOKENS);
        assertThat(gap.get("n").asInt()).isEqualTo(REQUESTS * (OUTPUT_TOKENS - 1));
        // On any machine: a byte is read after its packet (the log keeps whole microseconds).
        assertThat(arrival.get("min").asDouble()).isGreaterThanOrEqualTo(-0.002);

        double boundMs = HostLoad.slackMs(1.0);
        System.out.printf(
                Locale.ROOT,
                "wire truth, %d streams: |sim - packets| p99: arrival %.3f, token write %.3f, "
                        + "TTFT %.3f, gap %.3f ms (bound %.1f ms, %s)%n",
                STREAMS,
                arrival.get("abs_p99").asDouble(),
                write.get("abs_p99").asDouble(),
                ttft.get("abs_p99").asDouble(),
                gap.get("abs_p99").asDouble(),
                boundMs,
                HostLoad.describe());
        assertThat(arrival.get("abs_p99").asDouble()).as(HostLoad.describe()).isLessThan(boundMs);
        assertThat(write.get("abs_p99").asDouble()).as(HostLoad.describe()).isLessThan(boundMs);
        assertThat(ttft.get("abs_p99").asDouble()).as(HostLoad.describe()).isLessThan(boundMs);
        assertThat(gap.get("abs_p99").asDouble()).as(HostLoad.describe()).isLessThan(boundMs);
    }

    /**
     * tcpdump on lo for {@code port}, whole packets with nanosecond stamps, returned once it
     * listens; skips the test when it may not capture (neither root nor CAP_NET_RAW).
     */
    private Process startCapture(int port, Path pcap) throws Exception {
        File log = dir.resolve("tcpdump.log").toFile();
        // A 64 MiB buffer: the 64 streams' packets are far fewer, and none may be dropped.
        Process tcpdump = new ProcessBuilder(
                        "tcpdump",
                        "-i",
                        "lo",
                        "-s",
                        "0",
                        "-B",
                        "65536",
                        "--time-stamp-precision=nano",
                        "-n",
                        "-U",
                        "-w",
                        pcap.toString(),
                        "tcp port " + port)
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        for (int i = 0; i < 200; i++) {
            String said = Files.readString(log.toPath());
            if (said.contains("listening on")) {
                return tcpdump;
            }
            if (!tcpdump.isAlive()) {
                // Most often a user without root or CAP_NET_RAW; tcpdump's own words say which.
                assumeTrue(false, "tcpdump cannot capture here: " + said.strip());
            }
            Thread.sleep(50);
        }
        tcpdump.destroyForcibly();
        throw new AssertionError("tcpdump did not start listening: " + Files.readString(log.toPath()));
    }

    /**
     * Waits until the capture file has not grown for longer than the kernel ring's block timeout
     * (tcpdump's 1 s): tcpdump stopped before that leaves the packets it has not yet taken from
     * the ring unwritten, counted nowhere, and the run's last answers look short.
     */
    private static void awaitQuiet(Path pcap) throws Exception {
        long size = -1;
        long stillSince = System.nanoTime();
        long deadline = stillSince + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() - deadline < 0) {
            long now = Files.exists(pcap) ? Files.size(pcap) : 0;
            if (now != size) {
                size = now;
                stillSince = System.nanoTime();
            } else if (System.nanoTime() - stillSince >= TimeUnit.MILLISECONDS.toNanos(1_500)) {
                return;
            }
            Thread.sleep(50);
        }
    }

    private static boolean onPath(String program) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(entry, program))) {
                return true;
            }
        }
        return false;
    }
}
