package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.load.FixedSimulator;
import dev.llmload.metrics.DoubleList;
import dev.llmload.record.Journal;
import dev.llmload.sim.server.SimServer;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's timings against the simulator's own record of when it wrote each token, request by
 * request (matched by {@code x-request-id}), with 256 streams in flight over loopback. The streams
 * start one by one over one request's length, as users' requests would, rather than all at once:
 * 256 requests in the same millisecond, every request ending and starting again together, would
 * measure how the two processes take a burst on two CPUs, not what the client adds to a timing.
 *
 * <p>The client measures from its send, the ground truth from the request's arrival, so a TTFT
 * differs by the request's trip to the server plus the token's trip back, both positive; a gap
 * between two tokens differs only by how much the second token's trip back differs from the
 * first's. The bound, 1 ms at p99, is what "the client adds no measurable error" means at the
 * millisecond precision reports are read in.
 *
 * <p>That bound only means something on a machine that runs both sides on time. The fixed-latency
 * simulator's own record says how late it ran (its first token is due exactly {@code TTFT_MS}
 * after the request was handed to its engine, and the record counts from the read of the request's
 * first byte, so the server's parsing on a starved event loop counts as lateness too); when other processes starve this one so much that the server itself is more
 * than a millisecond late at p99, the comparison is skipped with that reason rather than failed.
 * Repeat it on a quiet machine with {@code bench/ground-truth.sh} (docs/performance.md).
 */
@Tag("loopback")
@Tag("timing")
class GroundTruthAgreementTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int STREAMS = 256;
    private static final int REQUESTS = 512;
    private static final int OUTPUT_TOKENS = 16;
    private static final double TTFT_MS = 30;
    private static final double ITL_MS = 40;
    /** One request's length: streams ramped up over it stay spread evenly over it. */
    private static final long CYCLE_MS = (long) (TTFT_MS + (OUTPUT_TOKENS - 1) * ITL_MS);

    @TempDir
    Path dir;

    @Test
    void everyTtftAndInterTokenGapAgreesWithTheServersGroundTruthWithin1MsAtP99() throws Exception {
        Path truthFile = dir.resolve("ground-truth.jsonl");
        Path runDir = dir.resolve("run");
        try (SimServer sim = FixedSimulator.start(TTFT_MS, ITL_MS, Map.of("groundTruth", truthFile.toString()))) {
            // A first run warms both sides' code up (its request ids differ: they start with the
            // run directory's name), so the one compared measures steady state, not class loading.
            SimulatorRuns.run(SimulatorRuns.closedLoopRampedUp(
                    sim.url(), STREAMS, CYCLE_MS, STREAMS, 32, OUTPUT_TOKENS, dir.resolve("warmup")));
            SimulatorRuns.run(SimulatorRuns.closedLoopRampedUp(
                    sim.url(), STREAMS, CYCLE_MS, REQUESTS, 32, OUTPUT_TOKENS, runDir));
        } // closing the simulator flushes its log

        Map<String, JsonNode> truth = byRequestId(truthFile);
        Map<String, JsonNode> client = byRequestId(runDir.resolve(Journal.FILE_NAME));
        assertThat(client).hasSize(REQUESTS);
        // Each of the two runs also sent one uncounted test request before its clock started.
        assertThat(truth).hasSize(STREAMS + REQUESTS + 2);
        assertThat(truth.keySet()).containsAll(client.keySet());

        DoubleList ttftExcess = new DoubleList();
        DoubleList gapDifference = new DoubleList();
        DoubleList serverLateness = new DoubleList();
        for (Map.Entry<String, JsonNode> entry : client.entrySet()) {
            JsonNode mine = entry.getValue();
            JsonNode theirs = truth.get(entry.getKey());
            assertThat(mine.get("outcome").asText()).isEqualTo("success");
            assertThat(theirs.get("outcome").asText()).isEqualTo("success");
            JsonNode clientTimes = mine.get("token_times_ms");
            JsonNode serverTimes = theirs.get("token_times_ms");
            assertThat(clientTimes).hasSize(OUTPUT_TOKENS);
            assertThat(serverTimes).hasSize(OUTPUT_TOKENS);
            assertThat(mine.get("ttft_ms").asDouble())
                    .isEqualTo(clientTimes.get(0).asDouble());
            ttftExcess.add(clientTimes.get(0).asDouble() - serverTimes.get(0).asDouble());
            serverLateness.add(serverTimes.get(0).asDouble() - TTFT_MS);
            for (int i = 1; i < OUTPUT_TOKENS; i++) {
                double clientGap =
                        clientTimes.get(i).asDouble() - clientTimes.get(i - 1).asDouble();
                double serverGap =
                        serverTimes.get(i).asDouble() - serverTimes.get(i - 1).asDouble();
                gapDifference.add(clientGap - serverGap);
            }
        }
        Summary ttft = Statistics.summarize(ttftExcess.toArray());
        Summary gapsAbs = Statistics.summarize(absolute(gapDifference.toArray()));
        Summary late = Statistics.summarize(serverLateness.toArray());
        System.out.printf(
                Locale.ROOT,
                "ground truth agreement, %d streams, %d requests: client TTFT - server TTFT "
                        + "p50 %.3f p99 %.3f max %.3f ms; |client gap - server gap| (%d gaps) p50 %.3f p99 %.3f max %.3f ms%n",
                STREAMS,
                REQUESTS,
                ttft.p50(),
                ttft.p99(),
                ttft.max(),
                gapsAbs.count(),
                gapsAbs.p50(),
                gapsAbs.p99(),
                gapsAbs.max());
        System.out.printf(
                Locale.ROOT,
                "server's own lateness (first token after %.0f ms): p50 %.3f p99 %.3f ms%n",
                TTFT_MS,
                late.p50(),
                late.p99());
        // On any machine, however busy: transport and client cost can only add to the server's TTFT
        // (the journal rounds to 1 µs), and every gap was compared.
        assertThat(ttft.min()).isGreaterThanOrEqualTo(-0.001);
        assertThat(gapsAbs.count()).isEqualTo((long) REQUESTS * (OUTPUT_TOKENS - 1));

        assumeTrue(
                late.p99() < 1.0,
                () -> "the machine is too busy to judge: the simulator itself ran " + late.p99() + " ms late at p99");
        assertThat(ttft.p99()).isLessThan(1.0);
        assertThat(gapsAbs.p99()).isLessThan(1.0);
    }

    private static double[] absolute(double[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Math.abs(values[i]);
        }
        return out;
    }

    private static Map<String, JsonNode> byRequestId(Path jsonl) throws IOException {
        Map<String, JsonNode> byId = new HashMap<>();
        for (String line : Files.readAllLines(jsonl)) {
            JsonNode node = JSON.readTree(line);
            assertThat(byId.put(node.get("request_id").asText(), node))
                    .as("duplicate id in %s", jsonl)
                    .isNull();
        }
        return byId;
    }
}
